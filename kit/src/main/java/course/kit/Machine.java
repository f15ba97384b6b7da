package course.kit;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * How busy the machine was with <em>other</em> programs while a measurement ran: the evidence a timing check
 * gives when it misses its band ({@link Check#timing}).
 *
 * <p>On Linux it reads {@code /proc/stat} (CPU time of the whole machine, steal time included) and
 * {@code /proc/self/stat} (this JVM's own CPU time) before and after the run: what the machine spent beyond this
 * JVM went to other programs, or was stolen from a virtual machine by its host. Elsewhere it falls back on the
 * operating system bean's recent CPU load, a rougher reading.
 */
public final class Machine {
    /**
     * A machine counts as busy when other programs used more than this many cores on average during the run.
     * A quiet 2-core machine shows 0.00–0.05 (system daemons, the terminal); one other program spinning shows
     * about 1.0.
     */
    public static final double BUSY_CORES = 0.25;

    private Machine() {}

    /** Where load readings come from; {@link #system()} in notebooks, a fixed reading in tests. */
    @FunctionalInterface
    public interface Meter {
        /** Starts a reading; the returned window's {@link Window#end()} ends it. */
        Window begin();
    }

    /** One reading in progress. */
    @FunctionalInterface
    public interface Window {
        /** Ends the reading and returns what it saw. */
        Load end();
    }

    /**
     * What one reading saw.
     *
     * @param seconds    how long the window lasted
     * @param otherCores cores used on average by other programs (and steal time) during the window
     * @param cores      the cores this JVM may use
     * @param source     where the figure comes from, for the evidence line; null when nothing could be read
     */
    public record Load(double seconds, double otherCores, int cores, String source) {
        /** A reading for a machine with nothing to read (no /proc, no bean). */
        public static Load unknown(double seconds) {
            return new Load(seconds, Double.NaN, Runtime.getRuntime().availableProcessors(), null);
        }

        /** Whether anything could be read. */
        public boolean known() {
            return source != null && !Double.isNaN(otherCores);
        }

        /** Whether other programs used more than {@link #BUSY_CORES} on average. */
        public boolean busy() {
            return known() && otherCores > BUSY_CORES;
        }

        /** One sentence of evidence, for example "other programs used 0.93 of 2 cores (/proc/stat)". */
        public String evidence() {
            if (!known()) return "the load of other programs could not be read here";
            return String.format(Locale.ROOT, "other programs used %.2f of %d cores (%s)", otherCores, cores, source);
        }
    }

    /** The meter for this machine: /proc where there is one, the operating system bean elsewhere. */
    public static Meter system() {
        return PROC.isPresent() ? Machine::procWindow : Machine::beanWindow;
    }

    /** A meter that always reads {@code otherCores}: for tests of what a check does on a quiet or busy machine. */
    public static Meter fixed(double otherCores) {
        return () -> {
            long t0 = System.nanoTime();
            return () -> new Load((System.nanoTime() - t0) / 1e9, otherCores, 2, "fixed reading");
        };
    }

    private static final Optional<Path> PROC =
            Files.isReadable(Path.of("/proc/stat")) && Files.isReadable(Path.of("/proc/self/stat"))
                    ? Optional.of(Path.of("/proc"))
                    : Optional.empty();
    /** USER_HZ: the unit of /proc's CPU times, 100 on every Linux architecture the course runs on. */
    private static final double TICKS_PER_SECOND = 100.0;

    private static Window procWindow() {
        long[] m0 = machineTicks();
        long own0 = ownTicks();
        long t0 = System.nanoTime();
        return () -> {
            long[] m1 = machineTicks();
            long own1 = ownTicks();
            double seconds = (System.nanoTime() - t0) / 1e9;
            if (m0 == null || m1 == null || own0 < 0 || own1 < 0 || seconds <= 0) return Load.unknown(seconds);
            long busy = m1[0] - m0[0]; // every CPU's non-idle time, steal included
            long own = own1 - own0;
            double other = Math.max(0, busy - own) / TICKS_PER_SECOND / seconds;
            return new Load(seconds, other, Runtime.getRuntime().availableProcessors(), "/proc/stat");
        };
    }

    /** {busy ticks} of all CPUs: user + nice + system + irq + softirq + steal; null where unreadable. */
    static long[] machineTicks() {
        try {
            String first = Files.readAllLines(Path.of("/proc/stat")).getFirst();
            return new long[] {parseBusy(first)};
        } catch (Exception e) {
            return null;
        }
    }

    /** Busy ticks from /proc/stat's aggregate "cpu" line. */
    static long parseBusy(String cpuLine) {
        String[] f = cpuLine.trim().split("\\s+");
        if (!f[0].equals("cpu")) throw new IllegalArgumentException("not the aggregate cpu line: " + cpuLine);
        long user = Long.parseLong(f[1]), nice = Long.parseLong(f[2]), system = Long.parseLong(f[3]);
        long irq = f.length > 6 ? Long.parseLong(f[6]) : 0, softirq = f.length > 7 ? Long.parseLong(f[7]) : 0;
        long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
        return user + nice + system + irq + softirq + steal;
    }

    /** This process's utime + stime in ticks, from /proc/self/stat; -1 where unreadable. */
    static long ownTicks() {
        try {
            String s = Files.readString(Path.of("/proc/self/stat"));
            // the command name (field 2) may hold spaces: count fields after its closing parenthesis
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15 of the whole line
        } catch (Exception e) {
            return -1;
        }
    }

    private static Window beanWindow() {
        long t0 = System.nanoTime();
        return () -> {
            double seconds = (System.nanoTime() - t0) / 1e9;
            if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
                double all = os.getCpuLoad(), mine = os.getProcessCpuLoad();
                int cores = Runtime.getRuntime().availableProcessors();
                if (all >= 0 && mine >= 0) {
                    return new Load(
                            seconds, Math.max(0, all - mine) * cores, cores, "the operating system's recent CPU load");
                }
            }
            return Load.unknown(seconds);
        };
    }
}
