package course.kit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LimitsTest {

    @Test
    void platformCeilingIsPositiveAndAvailabilityBelowIt() {
        long ceiling = Limits.platformThreadCeiling();
        long available = Limits.platformThreadsAvailable();
        assertTrue(ceiling > 0, "ceiling " + ceiling);
        assertTrue(
                available <= ceiling - ManagementFactory.getThreadMXBean().getThreadCount(),
                "live threads are not available: " + available + " of " + ceiling);
    }

    @Test
    void tenMillionPlatformThreadsAreRefusedWithTheLimitAndAFix() {
        var e = assertThrows(IllegalArgumentException.class, () -> Limits.requirePlatformThreads(10_000_000));
        String m = e.getMessage();
        assertTrue(m.contains(String.format("%,d platform threads cannot run here", 10_000_000)), m);
        assertTrue(
                m.contains(String.format("allows %,d threads", Limits.platformThreadCeiling())),
                "names the limit: " + m);
        assertTrue(m.contains("ulimit -u") && m.contains("pids.max"), "says where the limit comes from: " + m);
        assertTrue(m.contains("smaller pool") && m.contains("virtual threads"), "suggests a fix: " + m);
    }

    @Test
    void aFewPlatformThreadsAreAllowedAndOneMoreThanTheCeilingIsNot() {
        Limits.requirePlatformThreads(0);
        Limits.requirePlatformThreads(16);
        long over = Limits.platformThreadCeiling() + 1;
        var e = assertThrows(IllegalArgumentException.class, () -> Limits.requirePlatformThreads(over));
        assertTrue(e.getMessage().contains(String.format("%,d platform threads", over)), e.getMessage());
    }

    @Test
    void negativeThreadCountsAreRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> Limits.requirePlatformThreads(-1));
        assertTrue(e.getMessage().contains("negative"), e.getMessage());
        var f = assertThrows(IllegalArgumentException.class, () -> Limits.requireVirtualThreads(-1));
        assertTrue(f.getMessage().contains("negative"), f.getMessage());
    }

    @Test
    void virtualThreadCapacityFollowsTheHeap() {
        long available = Limits.virtualThreadsAvailable();
        assertTrue(available > 0);
        assertTrue(available <= Runtime.getRuntime().maxMemory() / Limits.BYTES_PER_VIRTUAL_THREAD, "" + available);
        Limits.requireVirtualThreads(10_000);
    }

    @Test
    void virtualThreadsBeyondTheHeapAreRefusedWithTheHeapAndAFix() {
        long n = 2 * Runtime.getRuntime().maxMemory() / Limits.BYTES_PER_VIRTUAL_THREAD;
        var e = assertThrows(IllegalArgumentException.class, () -> Limits.requireVirtualThreads(n));
        String m = e.getMessage();
        assertTrue(m.contains(String.format("%,d virtual threads", n)), m);
        assertTrue(m.contains("-Xmx" + (Runtime.getRuntime().maxMemory() >> 20) + "m"), "names the heap limit: " + m);
        assertTrue(
                m.contains(String.format("%,d MB", n * Limits.BYTES_PER_VIRTUAL_THREAD >> 20)),
                "states the need: " + m);
        assertTrue(m.contains("Run fewer") && m.contains("more heap"), "suggests a fix: " + m);
    }

    @Test
    void absurdVirtualThreadCountsStateAPositiveHeapNeed() {
        var e = assertThrows(IllegalArgumentException.class, () -> Limits.requireVirtualThreads(Long.MAX_VALUE));
        var m = java.util.regex.Pattern.compile("need about ([\\d.,'\\u00a0\\u202f]+) MB")
                .matcher(e.getMessage());
        assertTrue(m.find(), e.getMessage());
        long mb = Long.parseLong(m.group(1).replaceAll("\\D", ""));
        assertTrue(
                mb > Runtime.getRuntime().maxMemory() >> 20,
                "the need exceeds the heap, not an overflowed figure: " + e.getMessage());
    }

    @Test
    void durationsMustBePositive() {
        for (Duration d : new Duration[] {null, Duration.ZERO, Duration.ofSeconds(-1)}) {
            var e = assertThrows(IllegalArgumentException.class, () -> Limits.requireDuration("the café", d));
            assertTrue(e.getMessage().startsWith("the café must be a positive duration"), e.getMessage());
        }
    }

    @Test
    void theMaximumDurationIsAllowedAndOneNanosecondMoreIsNot() {
        Limits.requireDuration("x", Duration.ofNanos(1));
        Limits.requireDuration("x", Limits.MAX_EXPERIMENT);
        assertThrows(
                IllegalArgumentException.class, () -> Limits.requireDuration("x", Limits.MAX_EXPERIMENT.plusNanos(1)));
    }

    @Test
    void longerDurationsAreRefusedWithTheCapAndAFix() {
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> Limits.requireDuration("10,000 tasks on 1 thread", Duration.ofHours(3)));
        String m = e.getMessage();
        assertTrue(m.startsWith("10,000 tasks on 1 thread would take about"), m);
        assertTrue(m.contains(Limits.MAX_EXPERIMENT.toMinutes() + " minutes"), m);
        assertTrue(m.contains("fewer tasks"), m);
    }

    @Test
    void prettyPicksAReadableUnit() {
        assertTrue(Limits.pretty(Duration.ofHours(3)).endsWith(" h"));
        assertTrue(Limits.pretty(Duration.ofMinutes(45)).endsWith(" min"));
        assertTrue(Limits.pretty(Duration.ofMillis(1500)).endsWith(" s"));
        assertTrue(Limits.pretty(Duration.ofMinutes(90)).startsWith("1"));
    }
}
