package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JdkTest {

    @Test
    void theReleaseIsTheOneThisBuildCompiledFor() {
        // javac's --release writes the class file version: 44 + the release
        int classFileMajor = classFileMajor(Jdk.class);
        assertEquals(classFileMajor - 44, Jdk.release());
    }

    @Test
    void onTheCoursesReleaseOneLineSaysSo() {
        String r = Jdk.report(Jdk.release());
        assertEquals(Check.PASS + " Java " + Jdk.release() + ": the release the course runs on", r);
    }

    @Test
    void onAnotherReleaseItNamesWhatNeedsTheCoursesReleaseAndWhy() {
        int other = Jdk.release() + 1;
        String r = Jdk.report(other);
        assertTrue(r.startsWith(Check.WARN + " Java " + other + ": the course runs on JDK " + Jdk.release()), r);
        assertTrue(r.contains("notebook 07, exercise 07"), r);
        assertTrue(r.contains("StructuredTaskScope") && r.contains("anySuccessfulResultOrThrow"), r);
        assertTrue(r.contains("notebook 06") && r.contains("class initialiser"), r);
        assertEquals(1 + Jdk.needs().size() + 1, r.lines().count(), "a line per part, then what to do: " + r);
        assertFalse(r.contains(Check.FAIL), "another release stops nothing: " + r);
    }

    @Test
    void checkPrintsTheReportAndThrowsNothingOnAnotherRelease() {
        var buf = new ByteArrayOutputStream();
        PrintStream out = System.out;
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            Jdk.check(26);
        } finally {
            System.setOut(out);
        }
        assertEquals(Jdk.report(26), buf.toString(StandardCharsets.UTF_8).strip());
    }

    @Test
    void everyNeedSaysWhatAndWhy() {
        assertTrue(Jdk.needs().size() >= 2, Jdk.needs().toString());
        for (Jdk.Need n : Jdk.needs()) {
            assertFalse(n.what().isBlank() || n.why().isBlank(), n.toString());
        }
    }

    private static int classFileMajor(Class<?> c) {
        try (var in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
            byte[] head = in.readNBytes(8);
            return ((head[6] & 0xff) << 8) | (head[7] & 0xff);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
