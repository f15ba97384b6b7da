package course.kernel;

import java.lang.reflect.Field;
import java.util.Stack;
import java.util.concurrent.atomic.AtomicInteger;
import org.rapaio.jupyter.kernel.channels.AbstractChannel;
import org.rapaio.jupyter.kernel.channels.Channels;
import org.rapaio.jupyter.kernel.core.RapaioKernel;
import org.rapaio.jupyter.kernel.core.java.JavaEngine;
import org.rapaio.jupyter.kernel.core.java.RapaioExecutionControl;
import org.rapaio.jupyter.kernel.core.java.RapaioExecutionControlProvider;
import org.rapaio.org.zeromq.ZMQ;

/**
 * The private parts of rapaio-jupyter-kernel 3.0.1 that the launcher needs, read by reflection (rapaio sits in
 * the unnamed module, so this needs no JVM flag). Every name here was read in rapaio's 3.0.1 source; a rapaio
 * version whose names differ fails at kernel start with a message naming the missing member, never later.
 */
final class RapaioInternals {

    private RapaioInternals() {}

    static <T> T field(Object owner, Class<?> declaring, String name, Class<T> type) {
        try {
            Field f = declaring.getDeclaredField(name);
            f.setAccessible(true);
            return type.cast(f.get(owner));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "rapaio-jupyter-kernel has no field " + declaring.getName() + "." + name + " of type "
                            + type.getName() + ": the course kernel is written for rapaio 3.0.1",
                    e);
        }
    }

    static void setField(Object owner, Class<?> declaring, String name, Object value) {
        try {
            Field f = declaring.getDeclaredField(name);
            f.setAccessible(true);
            f.set(owner, value);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException(
                    "cannot set " + declaring.getName() + "." + name
                            + ": the course kernel is written for rapaio-jupyter-kernel 3.0.1",
                    e);
        }
    }

    /** One of the five channels that {@link Channels} creates (heartbeat, shell, control, stdin, iopub). */
    static <C extends AbstractChannel> C channel(Channels channels, String name, Class<C> type) {
        return field(channels, Channels.class, name, type);
    }

    static ZMQ.Socket socket(AbstractChannel channel) {
        return field(channel, AbstractChannel.class, "socket", ZMQ.Socket.class);
    }

    static ZMQ.Context context(AbstractChannel channel) {
        return field(channel, AbstractChannel.class, "ctx", ZMQ.Context.class);
    }

    /** The execution control that runs the kernel's snippets (one per JShell). */
    static RapaioExecutionControl executionControl(RapaioKernel kernel) {
        JavaEngine engine = kernel.javaEngine();
        String id = field(engine, JavaEngine.class, "executionId", String.class);
        RapaioExecutionControlProvider provider =
                field(engine, JavaEngine.class, "controlProvider", RapaioExecutionControlProvider.class);
        RapaioExecutionControl control = provider.getRegisteredControl(id);
        if (control == null) {
            throw new IllegalStateException("rapaio's JShell has no registered execution control");
        }
        return control;
    }

    /** The execution count that rapaio gave the cell now running (it increments a static counter per cell). */
    static int lastExecutionCount() {
        AtomicInteger next = field(null, RapaioKernel.class, "executionCount", AtomicInteger.class);
        return next.get() - 1;
    }

    /** The execution count rapaio will give the next cell (it increments a static counter per cell). */
    static int nextExecutionCount() {
        return field(null, RapaioKernel.class, "executionCount", AtomicInteger.class)
                .get();
    }

    /** The actions rapaio runs after a shell message, last scheduled first (flush, reply, publish idle ...). */
    @SuppressWarnings("unchecked")
    static Stack<Runnable> afterActions(Channels channels) {
        return field(channels, Channels.class, "afterActions", Stack.class);
    }
}
