package course.kit;

import java.time.Duration;
import java.util.function.IntSupplier;

/**
 * A live progress line for a long run, shown in the notebook while the run goes on.
 *
 * <p>It appears only after the run has taken {@link #SHOW_AFTER} (short runs stay quiet), is refreshed a
 * few times a second by one daemon platform thread, and ends with the final count. {@link #close()} stops
 * that thread before it returns, so a run leaves no thread behind. Outside the kernel it does nothing.
 */
public final class Progress implements AutoCloseable {
    /** How long a run goes before its progress line appears. */
    public static final Duration SHOW_AFTER = Duration.ofMillis(750);

    private static final long REFRESH_MILLIS = 250;

    private final String label;
    private final int total;
    private final IntSupplier done;
    private final long t0 = System.nanoTime();
    private final Thread updater;
    private volatile boolean finished;
    private String displayId;

    private Progress(String label, int total, IntSupplier done, boolean live) {
        this.label = label;
        this.total = total;
        this.done = done;
        this.updater =
                live ? Thread.ofPlatform().daemon().name("course-progress").unstarted(this::loop) : null;
        if (updater != null) updater.start();
    }

    /** Starts tracking {@code total} units of work, of which {@code done} reports how many are complete. */
    public static Progress start(String label, int total, IntSupplier done) {
        return new Progress(label, total, done, Notebook.inKernel());
    }

    private void loop() {
        try {
            Thread.sleep(SHOW_AFTER);
            while (!finished) {
                View v = view(false);
                if (displayId == null) displayId = Notebook.display(v);
                else Notebook.update(displayId, v);
                Thread.sleep(REFRESH_MILLIS);
            }
        } catch (InterruptedException e) {
            // close() interrupts us: fall through to the final state
        } catch (RuntimeException e) {
            // a display failure must never break the experiment it reports on
        }
    }

    /** The current state, as shown. */
    public View view(boolean last) {
        return new View(label, Math.min(done.getAsInt(), total), total, (System.nanoTime() - t0) / 1e9, last);
    }

    /** Stops the updater; if a line was shown, it shows the final count. */
    @Override
    public void close() {
        finished = true;
        if (updater == null) return;
        updater.interrupt();
        boolean interrupted = false;
        while (true) {
            try {
                updater.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (displayId != null) {
            try {
                Notebook.update(displayId, view(true));
            } catch (RuntimeException ignored) {
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    /**
     * One state of a progress line.
     *
     * @param label   what is running
     * @param done    units complete
     * @param total   units in all
     * @param seconds seconds since the start
     * @param last    whether the run has ended
     */
    public record View(String label, int done, int total, double seconds, boolean last) {
        /** Plain text, for consoles and as the fallback for HTML. */
        @Override
        public String toString() {
            return String.format("%s %s: %,d / %,d done · %.1f s", last ? "■" : "▶", label, done, total, seconds);
        }

        /** A small HTML bar with the same text. */
        public String html() {
            double pct = total == 0 ? 100 : 100.0 * done / total;
            return "<div style='font-family:monospace'><progress value='" + done + "' max='" + Math.max(total, 1)
                    + "' style='width:240px;vertical-align:middle'></progress> "
                    + org.jsoup.nodes.Entities.escape(String.format("%.0f%%  %s", pct, this)) + "</div>";
        }
    }
}
