package course.base.diagnostics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

/**
 * Records JFR's {@code jdk.VirtualThreadPinned} events while your code runs: every time a virtual thread
 * blocked (parked) while it could not leave its carrier, for at least the threshold you set.
 *
 * <pre>{@code
 * List<PinnedEvents.Pin> pins = PinnedEvents.during(Duration.ofMillis(10), () -> {
 *     try (var ex = Executors.newVirtualThreadPerTaskExecutor()) {
 *         for (int i = 0; i < 100; i++) ex.submit(() -> Config.VALUE);   // a class initialiser that sleeps
 *     }
 * });
 * }</pre>
 *
 * <p>The recording lives in this JVM (a JFR {@link RecordingStream}); {@link #stop()} waits until every
 * event recorded so far has been read, and {@link #close()} ends the recording whatever happened, so an
 * interrupted cell leaves no recording behind.
 */
public final class PinnedEvents implements AutoCloseable {
    /** The JFR event this recorder listens to. */
    public static final String EVENT = "jdk.VirtualThreadPinned";

    /**
     * One pinned park.
     *
     * @param thread    the virtual thread's name ("" when it has none) and id
     * @param duration  how long it stayed parked on its carrier
     * @param reason    why it could not unmount, as JFR says it (for example "VM call to X.&lt;clinit&gt; on stack")
     * @param operation what blocked ("LockSupport.park", "Object.wait")
     * @param frames    the stack, top first, without the virtual-thread machinery's own frames
     */
    public record Pin(String thread, Duration duration, String reason, String operation, List<String> frames) {
        public Pin {
            frames = List.copyOf(frames);
        }

        /** The first {@code n} frames, one per line. */
        public String top(int n) {
            return String.join("\n", frames.subList(0, Math.min(n, frames.size())));
        }
    }

    /** Code to run while recording. */
    @FunctionalInterface
    public interface Body {
        /** Runs it. @throws Exception whatever it throws */
        void run() throws Exception;
    }

    private final RecordingStream stream;
    private final List<Pin> pins = new CopyOnWriteArrayList<>();
    private boolean stopped;

    private PinnedEvents(Duration threshold) {
        Objects.requireNonNull(threshold, "threshold");
        if (threshold.isNegative()) throw new IllegalArgumentException("negative threshold: " + threshold);
        stream = new RecordingStream();
        try {
            stream.enable(EVENT).withThreshold(threshold).withStackTrace();
            stream.onEvent(EVENT, e -> pins.add(pin(e)));
            stream.startAsync();
        } catch (RuntimeException e) {
            stream.close();
            throw e;
        }
    }

    /** Starts recording pinned parks that last at least {@code threshold} ({@link Duration#ZERO}: all of them). */
    public static PinnedEvents record(Duration threshold) {
        return new PinnedEvents(threshold);
    }

    /** Records while {@code body} runs, and returns the pinned parks; the recording is gone afterwards. */
    public static List<Pin> during(Duration threshold, Body body) throws Exception {
        try (PinnedEvents rec = record(threshold)) {
            body.run();
            return rec.stop();
        }
    }

    /** Stops recording, waits until every recorded event has been read, and returns them in arrival order. */
    public List<Pin> stop() {
        if (!stopped) {
            stopped = true;
            stream.stop();
        }
        return List.copyOf(pins);
    }

    /** The pinned parks of threads whose name satisfies {@code names} (read so far). */
    public static List<Pin> of(List<Pin> pins, Predicate<String> names) {
        List<Pin> out = new ArrayList<>();
        for (Pin p : pins) if (names.test(p.thread())) out.add(p);
        return out;
    }

    /** Ends the recording (also when {@link #stop()} was never reached). */
    @Override
    public void close() {
        stream.close();
    }

    private static Pin pin(RecordedEvent e) {
        RecordedThread t = e.getThread();
        String name = t == null ? "?" : t.getJavaName() == null ? "" : t.getJavaName();
        String thread = t == null ? "?" : name + " #" + t.getJavaThreadId();
        List<String> frames = new ArrayList<>();
        if (e.getStackTrace() != null) {
            for (RecordedFrame f : e.getStackTrace().getFrames()) {
                if (!f.isJavaFrame()) continue;
                String type = f.getMethod().getType().getName();
                if (type.equals("java.lang.VirtualThread") || type.startsWith("jdk.internal.")) continue;
                frames.add(shortType(type) + "." + f.getMethod().getName() + ":" + f.getLineNumber());
            }
        }
        // A class declared in a notebook cell is REPL.$JShell$26$Config to the JVM: say Config.
        String reason = text(e, "pinnedReason").replaceAll("REPL\\.\\$JShell\\$\\d+\\$", "");
        return new Pin(thread, e.getDuration(), reason, text(e, "blockingOperation"), frames);
    }

    private static String text(RecordedEvent e, String field) {
        return e.hasField(field) ? String.valueOf(e.getString(field)) : "";
    }

    /**
     * {@code REPL.$JShell$12$Config} (a class declared in a notebook cell) reads as {@code Config}, and
     * {@code REPL.$JShell$26} (a cell's own code) as {@code cell}.
     */
    static String shortType(String type) {
        if (type.startsWith("REPL.")) {
            String last = type.substring(type.lastIndexOf('$') + 1);
            return last.isEmpty() || last.chars().allMatch(Character::isDigit) ? "cell" : last;
        }
        return type;
    }
}
