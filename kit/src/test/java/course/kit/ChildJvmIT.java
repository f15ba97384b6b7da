package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs static methods of this class in child JVMs. The child's classpath is this JVM's java.class.path: under
 * surefire that is its booter jar, whose manifest lists the test classes, so these methods are found there.
 */
@Timeout(60)
public class ChildJvmIT {

    /** What {@link #describe} returns: every parameter type the child converts, and facts about the child. */
    public record Answer(
            int sum,
            long big,
            String text,
            double half,
            boolean flag,
            long sleepMillis,
            long pid,
            String property,
            boolean virtualRan,
            int peak) {}

    public static Answer describe(int a, long b, String text, double d, boolean flag, Duration sleep) throws Exception {
        RunResult r = Run.tasks(Pool.fixed(2), 4, i -> {});
        return new Answer(
                a + (int) b,
                b * 2,
                text.toUpperCase(),
                d / 2,
                !flag,
                sleep.toMillis(),
                ProcessHandle.current().pid(),
                System.getProperty("kit.test.property"),
                Run.tasks(Pool.virtual(), 1, i -> {}).virtualTasks() == 1,
                r.peakConcurrency() <= 2 ? 2 : -1);
    }

    public static int fail(String why) {
        throw new IllegalStateException("child says " + why);
    }

    public static String unsupported(Object o) {
        return "never";
    }

    public static long sleepLong() throws InterruptedException {
        Thread.sleep(Duration.ofMinutes(2));
        return 1;
    }

    @Test
    void callRunsTheMethodInAnotherJvmAndReadsItsRecord() throws Exception {
        Answer a = ChildJvm.call(
                List.of("-Xmx256m", "-Dkit.test.property=set by the parent"),
                Answer.class,
                ChildJvmIT.class,
                "describe",
                "2",
                "40",
                "café",
                "3.0",
                "false",
                "PT1.5S");
        assertEquals(42, a.sum());
        assertEquals(80L, a.big());
        assertEquals("CAFÉ", a.text());
        assertEquals(1.5, a.half());
        assertTrue(a.flag());
        assertEquals(1500, a.sleepMillis());
        assertEquals("set by the parent", a.property(), "JVM options reach the child");
        assertNotEquals(ProcessHandle.current().pid(), a.pid(), "it ran in another process");
        assertTrue(a.virtualRan());
        assertEquals(2, a.peak());
    }

    @Test
    void aFailingChildThrowsWithItsOutput() {
        var e = assertThrows(
                IllegalStateException.class,
                () -> ChildJvm.call(List.of(), Integer.class, ChildJvmIT.class, "fail", "on purpose"));
        assertTrue(e.getMessage().startsWith("the child JVM (ChildJvmIT.fail) exited with 1"), e.getMessage());
        assertTrue(e.getMessage().contains("child says on purpose"), e.getMessage());
    }

    @Test
    void aMissingMethodOrUnsupportedParameterFailsClearly() {
        var missing = assertThrows(
                IllegalStateException.class, () -> ChildJvm.call(List.of(), Integer.class, ChildJvmIT.class, "fail"));
        assertTrue(missing.getMessage().contains("NoSuchMethodException"), missing.getMessage());
        assertTrue(missing.getMessage().contains("fail with 0 parameters"), missing.getMessage());
        var unsupported = assertThrows(
                IllegalStateException.class,
                () -> ChildJvm.call(List.of(), String.class, ChildJvmIT.class, "unsupported", "x"));
        assertTrue(unsupported.getMessage().contains("cannot take a java.lang.Object"), unsupported.getMessage());
    }

    @Test
    void argumentsAreRequired() {
        assertThrows(NullPointerException.class, () -> ChildJvm.call(List.of(), Integer.class, null, "x"));
        assertThrows(NullPointerException.class, () -> ChildJvm.call(List.of(), Integer.class, ChildJvmIT.class, null));
    }

    @Test
    void interruptingTheCallerStopsTheChild() throws Exception {
        var thrown = new AtomicReference<Throwable>();
        Thread caller = Thread.ofPlatform().start(() -> {
            try {
                ChildJvm.call(List.of(), Long.class, ChildJvmIT.class, "sleepLong");
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        // wait until the child JVM exists, then press "stop"
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (ProcessHandle.current().children().findAny().isEmpty() && System.nanoTime() < deadline) Thread.sleep(10);
        ProcessHandle child = ProcessHandle.current().children().findAny().orElseThrow();
        caller.interrupt();
        caller.join(Duration.ofSeconds(20));
        assertFalse(caller.isAlive(), "call() returned long before the child's two minutes");
        assertInstanceOf(InterruptedException.class, thrown.get());
        child.onExit().get(); // @Timeout guards this
        assertFalse(child.isAlive(), "the child was destroyed");
    }
}
