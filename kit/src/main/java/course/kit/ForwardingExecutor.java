package course.kit;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An executor that wraps each task on its way to another executor, and hands that executor's lifecycle
 * ({@code shutdown}, {@code shutdownNow}, {@code awaitTermination}, {@code close}) straight through. The kit's
 * instruments that watch your tasks without replacing your executor ({@link Recorder#executor}, the permit-leak
 * guard of notebook 05) are built on it: a subclass says only what it does around a task.
 */
public abstract class ForwardingExecutor extends AbstractExecutorService {
    /** The executor that runs the tasks. */
    protected final ExecutorService delegate;

    protected ForwardingExecutor(ExecutorService delegate) {
        this.delegate = Objects.requireNonNull(delegate, "executor");
    }

    /** The task as the delegate runs it: {@code command} with whatever the subclass does around it. */
    protected abstract Runnable wrap(Runnable command);

    @Override
    public final void execute(Runnable command) {
        delegate.execute(wrap(Objects.requireNonNull(command, "command")));
    }

    @Override
    public void shutdown() {
        delegate.shutdown();
    }

    @Override
    public List<Runnable> shutdownNow() {
        return delegate.shutdownNow();
    }

    @Override
    public boolean isShutdown() {
        return delegate.isShutdown();
    }

    @Override
    public boolean isTerminated() {
        return delegate.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return delegate.awaitTermination(timeout, unit);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
