package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ScaleIT {

    @Test
    void parsesBothScalesInAnyCaseAndSpacing() {
        assertEquals(Scale.FULL, Scale.parse("full"));
        assertEquals(Scale.QUICK, Scale.parse("quick"));
        assertEquals(Scale.QUICK, Scale.parse(" QUICK "));
        assertEquals(Scale.FULL, Scale.parse("Full"));
    }

    @Test
    void nullOrBlankMeansFull() {
        assertEquals(Scale.FULL, Scale.parse(null));
        assertEquals(Scale.FULL, Scale.parse(""));
        assertEquals(Scale.FULL, Scale.parse("   "));
    }

    @ParameterizedTest
    @ValueSource(strings = {"fast", "ful", "quick!", "0"})
    void anyOtherValueIsRefusedWithTheValueAndTheChoices(String raw) {
        var e = assertThrows(IllegalArgumentException.class, () -> Scale.parse(raw));
        assertTrue(e.getMessage().contains("'" + raw + "'"), e.getMessage());
        assertTrue(e.getMessage().contains("full") && e.getMessage().contains("quick"), e.getMessage());
    }

    @Test
    void theCurrentScaleIsCourseScaleReadOnce() {
        assertEquals(Scale.parse(System.getenv(Scale.ENV)), Scale.current());
        assertSame(Scale.current(), Scale.current());
    }

    private record Child(int exit, String out, String err) {}

    /** Scale's main in a child JVM, with COURSE_SCALE set: the environment cannot be changed in this JVM. */
    private static Child child(String courseScale, String... args) throws Exception {
        var cmd = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Scale.class.getName()));
        cmd.addAll(List.of(args));
        var pb = new ProcessBuilder(cmd);
        pb.environment().put(Scale.ENV, courseScale);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return new Child(p.exitValue(), out, err);
    }

    @Test
    @Timeout(60)
    void aChildJvmRunsAtTheScaleItsEnvironmentNames() throws Exception {
        assertEquals(new Child(0, "quick", ""), child(" Quick"));
        assertEquals(new Child(0, "full", ""), child(""));
        assertEquals(new Child(2, "", "COURSE_SCALE must be 'full' or 'quick', not 'huge'"), child("huge"));
    }

    @Test
    @Timeout(60)
    void aNameGivenToMainIsCheckedInsteadOfTheEnvironment() throws Exception {
        assertEquals(new Child(0, "full", ""), child("quick", "FULL"));
        assertEquals(new Child(2, "", "COURSE_SCALE must be 'full' or 'quick', not 'fast'"), child("quick", "fast"));
    }

    @Test
    void pickChoosesByScale() {
        assertEquals("a", Scale.FULL.pick("a", "b"));
        assertEquals("b", Scale.QUICK.pick("a", "b"));
        assertEquals(10, Scale.FULL.pick(10, 2));
        assertEquals(2, Scale.QUICK.pick(10, 2));
        assertEquals(10_000_000_000L, Scale.FULL.pick(10_000_000_000L, 3L));
        assertEquals(3L, Scale.QUICK.pick(10_000_000_000L, 3L));
    }

    @Test
    void pickRefusesNullObjects() {
        assertThrows(NullPointerException.class, () -> Scale.FULL.pick(null, "b"));
        assertThrows(NullPointerException.class, () -> Scale.QUICK.pick("a", null));
    }

    @Test
    void shrinkDividesOnlyAtQuickScale() {
        assertEquals(Duration.ofSeconds(10), Scale.FULL.shrink(Duration.ofSeconds(10), 5));
        assertEquals(Duration.ofSeconds(2), Scale.QUICK.shrink(Duration.ofSeconds(10), 5));
        assertEquals(10_000, Scale.FULL.shrink(10_000, 100));
        assertEquals(100, Scale.QUICK.shrink(10_000, 100));
        assertEquals(1, Scale.QUICK.shrink(3, 10), "a count never shrinks to zero");
        assertEquals(7, Scale.QUICK.shrink(7, 1));
    }

    @Test
    void shrinkRefusesDivisorBelowOne() {
        assertThrows(IllegalArgumentException.class, () -> Scale.FULL.shrink(Duration.ofSeconds(1), 0));
        assertThrows(IllegalArgumentException.class, () -> Scale.QUICK.shrink(10, 0));
        assertThrows(IllegalArgumentException.class, () -> Scale.QUICK.shrink(10, -2));
    }

    @Test
    void printsAsCourseScaleSpellsIt() {
        assertEquals("full", Scale.FULL.toString());
        assertEquals("quick", Scale.QUICK.toString());
        assertEquals(Scale.QUICK, Scale.parse(Scale.QUICK.toString()));
    }
}
