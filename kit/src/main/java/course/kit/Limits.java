package course.kit;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What this JVM can hold, and the checks that refuse an impossible experiment before it starts.
 *
 * <p>A learner who asks for ten million platform threads should get a clear message, not a kernel killed
 * by the operating system. Every kit experiment calls these checks with its parameters; they throw
 * {@link IllegalArgumentException} naming the limit, where it comes from, and what to do instead.
 *
 * <ul>
 *   <li><b>Platform threads</b> are OS threads: the OS caps them per user ({@code ulimit -u}), per
 *       machine ({@code kernel.threads-max}) and per container ({@code pids.max}).</li>
 *   <li><b>Virtual threads</b> are heap objects: a parked one costs about a kilobyte of heap, so their
 *       number is bounded by {@code -Xmx}.</li>
 * </ul>
 */
public final class Limits {
    /**
     * Heap bytes the checks assume per parked virtual thread. Notebook 01 measures it live: about 1.6 KB per
     * thread parked on a latch in a fresh kernel (its stack chunk included; less once the waiting code is
     * compiled, more when it is only interpreted, see appendix 90); the check allows 2 KB, since a thread's stack
     * grows with what it does.
     */
    public static final long BYTES_PER_VIRTUAL_THREAD = 2_048;

    /** The longest single experiment the kit agrees to run: longer is almost surely a typo. */
    public static final Duration MAX_EXPERIMENT = Duration.ofMinutes(30);

    private static final Pattern NPROC = Pattern.compile("^Max processes\\s+(\\S+)", Pattern.MULTILINE);

    private Limits() {}

    /** The OS's limit on threads for this process's user, machine and container: the smallest that applies. */
    public static long platformThreadCeiling() {
        long limit = Long.MAX_VALUE;
        limit = Math.min(
                limit, readLong(Path.of("/proc/sys/kernel/threads-max")).orElse(Long.MAX_VALUE));
        if (!isRoot()) limit = Math.min(limit, nprocLimit().orElse(Long.MAX_VALUE)); // root ignores ulimit -u
        for (Path p : pidsMaxFiles()) limit = Math.min(limit, readLong(p).orElse(Long.MAX_VALUE));
        return limit == Long.MAX_VALUE ? 32_000 : limit; // no /proc (macOS, Windows): a conservative guess
    }

    /** How many more platform threads this JVM may start: the ceiling less the threads already live. */
    public static long platformThreadsAvailable() {
        return Math.max(
                0, platformThreadCeiling() - ManagementFactory.getThreadMXBean().getThreadCount() - 64);
    }

    /** How many parked virtual threads the free heap can hold, at {@link #BYTES_PER_VIRTUAL_THREAD} each. */
    public static long virtualThreadsAvailable() {
        Runtime rt = Runtime.getRuntime();
        long used = rt.totalMemory() - rt.freeMemory();
        long free = (long) (rt.maxMemory() * 0.9) - used;
        return Math.max(0, free / BYTES_PER_VIRTUAL_THREAD);
    }

    /** Refuses {@code n} platform threads when the OS would not allow them. */
    public static void requirePlatformThreads(long n) {
        if (n < 0) throw new IllegalArgumentException("a thread count cannot be negative: " + n);
        long available = platformThreadsAvailable();
        if (n > available) {
            throw new IllegalArgumentException(String.format(
                    "%,d platform threads cannot run here: this OS allows %,d threads for this user and container "
                            + "(the smallest of ulimit -u, kernel.threads-max and the cgroup's pids.max), and %,d are already live, so about %,d more "
                            + "fit. Use a smaller pool (a fixed pool of a few hundred threads), or virtual threads, "
                            + "which are not OS threads.",
                    n,
                    platformThreadCeiling(),
                    ManagementFactory.getThreadMXBean().getThreadCount(),
                    available));
        }
    }

    /**
     * Refuses {@code n} virtual threads alive at once when the heap ({@code -Xmx}) cannot hold them. The heap
     * in use includes the garbage of earlier experiments (a million dead threads after a round of sleepers),
     * so before refusing it collects once and asks again: only a size that does not fit in a clean heap is
     * refused.
     */
    public static void requireVirtualThreads(long n) {
        if (n < 0) throw new IllegalArgumentException("a thread count cannot be negative: " + n);
        long available = virtualThreadsAvailable();
        if (n > available) {
            ManagementFactory.getMemoryMXBean().gc();
            available = virtualThreadsAvailable();
        }
        if (n > available) {
            long neededMb = (long) ((double) n * BYTES_PER_VIRTUAL_THREAD / (1 << 20)); // no long overflow
            throw new IllegalArgumentException(String.format(
                    "%,d virtual threads alive at once need about %,d MB of heap (%,d bytes each), but this JVM "
                            + "(-Xmx%dm) has room for about %,d. Run fewer at once, or give the kernel more heap "
                            + "(-XX:MaxRAMPercentage in its kernel.json, written by ./course setup, or a larger container).",
                    n, neededMb, BYTES_PER_VIRTUAL_THREAD, Runtime.getRuntime().maxMemory() >> 20, available));
        }
    }

    /** Refuses a negative or zero duration, and one whose experiment would run longer than {@link #MAX_EXPERIMENT}. */
    public static void requireDuration(String what, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be a positive duration, not " + d);
        }
        if (d.compareTo(MAX_EXPERIMENT) > 0) {
            throw new IllegalArgumentException(String.format(
                    "%s would take about %s, longer than the %d minutes the kit allows for one experiment: "
                            + "use fewer tasks, shorter tasks or a bigger pool.",
                    what, pretty(d), MAX_EXPERIMENT.toMinutes()));
        }
    }

    static String pretty(Duration d) {
        long s = d.toSeconds();
        return s >= 3600
                ? String.format("%.1f h", s / 3600.0)
                : s >= 60 ? String.format("%.1f min", s / 60.0) : String.format("%.1f s", d.toMillis() / 1000.0);
    }

    /**
     * The pids.max files of this process's cgroup: cgroup v2 ({@code 0::/path}) and v1 ({@code N:pids:/path}),
     * each at the cgroup's own path and at the mount's root (a container sees its own cgroup there).
     */
    static java.util.List<Path> pidsMaxFiles() {
        var files = new java.util.ArrayList<Path>();
        try {
            for (String line : read(Path.of("/proc/self/cgroup")).split("\n")) {
                String[] f = line.split(":", 3);
                if (f.length < 3) continue;
                if (f[0].equals("0") && f[1].isEmpty()) files.add(Path.of("/sys/fs/cgroup", f[2], "pids.max"));
                if (java.util.Arrays.asList(f[1].split(",")).contains("pids")) {
                    files.add(Path.of("/sys/fs/cgroup/pids", f[2], "pids.max"));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        files.add(Path.of("/sys/fs/cgroup/pids.max"));
        files.add(Path.of("/sys/fs/cgroup/pids/pids.max"));
        return files.stream().filter(Files::isReadable).distinct().toList();
    }

    private static boolean isRoot() {
        try {
            for (String line : read(Path.of("/proc/self/status")).split("\n")) {
                if (line.startsWith("Uid:")) return line.split("\\s+")[1].equals("0");
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return false;
    }

    private static OptionalLong nprocLimit() {
        try {
            Matcher m = NPROC.matcher(read(Path.of("/proc/self/limits")));
            if (m.find() && !m.group(1).equals("unlimited")) return OptionalLong.of(Long.parseLong(m.group(1)));
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return OptionalLong.empty();
    }

    /** Reads a small file to its end; /proc files report a size of 0, which Files.readString trusts. */
    private static String read(Path p) throws IOException {
        try (var in = Files.newInputStream(p)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private static OptionalLong readLong(Path p) {
        try {
            String s = read(p).trim();
            return s.equals("max") ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(s));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }
}
