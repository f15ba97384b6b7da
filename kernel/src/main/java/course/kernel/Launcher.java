package course.kernel;

import java.io.InputStream;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import org.rapaio.jupyter.kernel.MainApp;
import org.rapaio.jupyter.kernel.core.ConnectionProperties;
import org.rapaio.jupyter.kernel.core.RapaioKernel;
import org.rapaio.jupyter.kernel.core.Transform;
import sun.misc.Signal;

/**
 * The course's Jupyter kernel: {@code java -javaagent:course-kernel.jar -cp lib/* course.kernel.Launcher
 * <connection file>}. It runs rapaio-jupyter-kernel's own kernel ({@link MainApp#kernel}, so magics,
 * {@code display} and {@code updateDisplay} are rapaio's) behind {@link KernelServer}, which starts reliably
 * and can be interrupted. SIGINT (a kernelspec with {@code interrupt_mode: signal}) interrupts the running
 * cell exactly as an {@code interrupt_request} does, instead of killing the JVM.
 */
public final class Launcher {

    private static final Logger LOG = Logger.getLogger(Launcher.class.getSimpleName());
    private static volatile KernelServer server;

    private Launcher() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println(
                    "usage: java -javaagent:course-kernel.jar -cp <jars> course.kernel.Launcher <connection file>");
            System.exit(2);
        }
        // SIGINT interrupts the running cell. Until the server exists it has no cell to stop, and it must not kill the
        // starting kernel either. On a thread of its own: where SIGINT must first be taken back (defaultSigint), the
        // Foreign Function API's first call costs about 0.2 s, which the kernel's start need not wait for.
        Thread.ofPlatform().name("kernel-sigint").daemon().start(() -> {
            if (sigintIgnored()) {
                defaultSigint();
            }
            Signal.handle(new Signal("INT"), sig -> {
                KernelServer s = server;
                if (s != null) {
                    s.interruptCell("SIGINT");
                }
            });
        });
        configureLogging();
        // rapaio's kernel (its JShell and javac, about 0.6 s of CPU) is built in MainApp's static initialiser. Build it
        // on a second thread from the start, so that it overlaps the sockets, the handshake and the client's own start
        // instead of following them: the first cell's output comes that much sooner.
        CompletableFuture<RapaioKernel> built = new CompletableFuture<>();
        Thread.ofPlatform().name("kernel-build").daemon().start(() -> {
            try {
                built.complete(buildWithCellClasspath());
            } catch (Throwable t) {
                built.completeExceptionally(t);
            }
        });
        CellStop.installQuietUncaughtHandler();
        Path connectionFile = Path.of(args[0]);
        if (!Files.isRegularFile(connectionFile)) {
            throw new IllegalArgumentException("Connection file '" + connectionFile + "' isn't a file.");
        }
        ConnectionProperties props = Transform.fromJson(
                Files.readString(connectionFile, StandardCharsets.UTF_8), ConnectionProperties.class);
        if (!StopAgent.isInstalled()) {
            LOG.warning("started without -javaagent:course-kernel.jar: CPU loops in cells cannot be interrupted");
        }
        try {
            ExerciseMagic.install();
        } catch (RuntimeException e) {
            LOG.warning("%exercise is not available: " + e.getMessage());
        }
        KernelServer s = new KernelServer(props);
        server = s;
        s.start();
        LOG.info("sockets bound " + millisSinceStart() + " ms after the JVM started");
        try {
            s.attach(built.join()); // kernel_info is answered meanwhile; other requests wait for this
        } catch (Throwable t) {
            if (t instanceof CompletionException && t.getCause() != null) t = t.getCause();
            s.failed(t);
            LOG.severe("the kernel could not start: " + t);
            t.printStackTrace();
            System.exit(1);
        }
        // The loop threads keep the JVM alive; a shutdown request ends it (KernelServer.exitSoon).
    }

    /**
     * Whether this process ignores SIGINT: a process started in the background by a shell without job control
     * ({@code cmd &}, {@code nohup}, some CI runners and service managers) inherits SIGINT ignored, and the JVM
     * then declines to handle it, silently, so that SIGINT (the interrupt of a kernelspec with
     * {@code interrupt_mode: signal}) would stop nothing. Read from {@code /proc/self/status} where there is one
     * (its {@code SigIgn} mask); elsewhere assumed, so that {@link #defaultSigint} runs.
     */
    static boolean sigintIgnored() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseUnsignedLong(
                                            line.substring("SigIgn:".length()).strip(), 16)
                                    & (1L << (SIGINT - 1)))
                            != 0;
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // no /proc: not Linux
        }
        return true;
    }

    /**
     * Sets SIGINT's disposition to the default ({@code signal(SIGINT, SIG_DFL)}, through the Foreign Function
     * API), so that {@link Signal#handle} can install the kernel's handler even where the process that started
     * the kernel ignored SIGINT: the JVM does not handle a signal that was ignored when it started, and says
     * nothing. At this point the default is what the JVM would do anyway (end the process), and the handler is
     * installed right after. POSIX only; elsewhere it does nothing.
     *
     * @return whether SIGINT had been ignored
     */
    static boolean defaultSigint() {
        if (System.getProperty("os.name", "").startsWith("Windows")) {
            return false;
        }
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle signal = linker.downcallHandle(
                    linker.defaultLookup().find("signal").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
            MemorySegment previous = (MemorySegment) signal.invokeExact(SIGINT, MemorySegment.NULL); // SIG_DFL
            boolean ignored = previous.address() == SIG_IGN;
            if (ignored) {
                LOG.info("SIGINT was ignored by the process that started the kernel; the kernel handles it again");
            }
            return ignored;
        } catch (Throwable t) {
            LOG.warning("could not restore SIGINT's default disposition (" + t
                    + "): if the process that started the kernel ignored SIGINT, a signal interrupt stops nothing");
            return false;
        }
    }

    private static final int SIGINT = 2; // the same on Linux and macOS
    private static final long SIG_IGN = 1;

    /** The system property that names the jars a cell compiles against (the kernelspec sets it: see README.md). */
    static final String CELL_CLASSPATH = "course.kernel.cellClasspath";

    /**
     * Builds rapaio's kernel with JShell's compiler seeing only the jars of {@link #CELL_CLASSPATH}, when it is
     * set. JShell's compiler takes its class path from {@code java.class.path} while JShell is built and its
     * start-up imports run (the first import lists every package of every jar on it), so the property holds the
     * cell class path for exactly that long. The JVM's own class loader read the full class path at start, and
     * the property is the full one again before any cell runs: a cell that starts a child JVM with
     * {@code java.class.path} (the kit's {@code ChildJvm}) gives it every jar.
     */
    static RapaioKernel buildWithCellClasspath() {
        return withCellClasspath(() -> MainApp.kernel);
    }

    /**
     * Runs {@code build} (which builds a JShell and runs its start-up imports) with {@code java.class.path} set to
     * the cell class path of {@link #CELL_CLASSPATH}, when it is set, and the full class path again after.
     */
    static <T> T withCellClasspath(java.util.function.Supplier<T> build) {
        String cells = System.getProperty(CELL_CLASSPATH, "");
        if (cells.isBlank()) {
            return build.get();
        }
        String full = System.getProperty("java.class.path");
        System.setProperty("java.class.path", cells);
        try {
            return build.get();
        } finally {
            System.setProperty("java.class.path", full);
        }
    }

    /** Milliseconds since this JVM's process started (for the kernel log), or -1 if the OS does not say. */
    static long millisSinceStart() {
        return ProcessHandle.current()
                .info()
                .startInstant()
                .map(t -> java.time.Duration.between(t, java.time.Instant.now()).toMillis())
                .orElse(-1L);
    }

    /**
     * rapaio's logging setup (one line per message on the kernel's stderr, which Jupyter's server log shows),
     * at the level of the environment variable {@code COURSE_KERNEL_LOG} ({@code INFO}, {@code FINE}…);
     * {@code WARNING} by default, so that a headless notebook run prints only what went wrong.
     */
    private static void configureLogging() throws Exception {
        try (InputStream in = MainApp.class.getClassLoader().getResourceAsStream("logging.properties")) {
            if (in != null) {
                LogManager.getLogManager().readConfiguration(in);
            }
        }
        String wanted = System.getenv().getOrDefault("COURSE_KERNEL_LOG", "WARNING");
        java.util.logging.Level level;
        try {
            level = java.util.logging.Level.parse(wanted.trim().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            level = java.util.logging.Level.WARNING;
        }
        Logger root = Logger.getLogger("");
        root.setLevel(level);
        for (var handler : root.getHandlers()) handler.setLevel(level);
    }
}
