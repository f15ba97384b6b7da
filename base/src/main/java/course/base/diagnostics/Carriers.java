package course.base.diagnostics;

import java.lang.management.ManagementFactory;
import jdk.management.VirtualThreadSchedulerMXBean;

/**
 * The virtual-thread scheduler of this JVM, through its management interface
 * ({@link VirtualThreadSchedulerMXBean}, JDK 24+): its parallelism (the carriers it aims for), its pool size
 * (the carriers that exist), and how many virtual threads are mounted or queued.
 *
 * <pre>{@code
 * try (var p = Carriers.parallelism(1)) {   // one carrier until the block ends, then back to what it was
 *     ...
 * }
 * }</pre>
 */
public final class Carriers {
    private Carriers() {}

    /** The scheduler's management interface. */
    public static VirtualThreadSchedulerMXBean scheduler() {
        return ManagementFactory.getPlatformMXBean(VirtualThreadSchedulerMXBean.class);
    }

    /** Restores the scheduler's parallelism when closed. */
    public static final class Parallelism implements AutoCloseable {
        private final int before;
        private final int now;

        private Parallelism(int before, int now) {
            this.before = before;
            this.now = now;
        }

        /** What it was before. */
        public int before() {
            return before;
        }

        /** What it is set to. */
        public int now() {
            return now;
        }

        /** Puts the parallelism back. */
        @Override
        public void close() {
            scheduler().setParallelism(before);
        }
    }

    /** Sets the scheduler's parallelism live, until the returned handle is closed. */
    public static Parallelism parallelism(int carriers) {
        if (carriers < 1) throw new IllegalArgumentException("parallelism must be at least 1: " + carriers);
        var s = scheduler();
        int before = s.getParallelism();
        s.setParallelism(carriers);
        return new Parallelism(before, carriers);
    }
}
