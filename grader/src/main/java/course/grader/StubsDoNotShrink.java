package course.grader;

import java.util.List;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.AroundTryHook;
import net.jqwik.api.lifecycle.Lifespan;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyAttributes;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;
import net.jqwik.api.lifecycle.Store;
import net.jqwik.api.lifecycle.TryExecutionResult;
import net.jqwik.api.lifecycle.TryExecutor;
import net.jqwik.api.lifecycle.TryLifecycleContext;

/**
 * A property that failed on a stub is not shrunk: every input fails a method that is not written yet in the same way,
 * so the simplest failing input says nothing, and jqwik would spend its whole shrinking time on it (4 s a property,
 * {@link PropertyTests#SHRINKING_SECONDS}: 15 s of the 17 s that grading exercise 04's stubs took). When a try fails
 * with the stubs' {@code UnsupportedOperationException("… is not written yet …")} anywhere in its causes, this hook
 * sets that property's shrinking to {@link ShrinkingMode#OFF}, which jqwik reads once a try has failed, so the
 * message gives the input that failed first. A property that fails any other way shrinks as before.
 *
 * <p>Registered for every test JVM of a grading through {@code META-INF/services/net.jqwik.api.lifecycle.LifecycleHook}
 * in the grader's jar, which is on those JVMs' class path; jqwik registers such hooks on its engine, hence
 * {@link #propagateTo()}.
 */
public final class StubsDoNotShrink implements AroundPropertyHook, AroundTryHook {
    /** What every stub of the exercises says when it is called. */
    static final String NOT_WRITTEN = "not written yet";

    private static final Tuple.Tuple2<Class<?>, String> ATTRIBUTES = Tuple.of(StubsDoNotShrink.class, "attributes");

    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        Store.create(ATTRIBUTES, Lifespan.PROPERTY, context::attributes);
        return property.execute();
    }

    @Override
    public TryExecutionResult aroundTry(TryLifecycleContext context, TryExecutor aTry, List<Object> parameters) {
        TryExecutionResult result = aTry.execute(parameters);
        if (result.isFalsified()
                && result.throwable().map(StubsDoNotShrink::isStub).orElse(false)) {
            Store.<PropertyAttributes>get(ATTRIBUTES).get().setShrinking(ShrinkingMode.OFF);
        }
        return result;
    }

    /** Whether {@code failure}, or one of its causes or suppressed exceptions, is a stub's "not written yet". */
    static boolean isStub(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof UnsupportedOperationException
                    && t.getMessage() != null
                    && t.getMessage().contains(NOT_WRITTEN)) {
                return true;
            }
            for (Throwable s : t.getSuppressed()) {
                if (isStub(s)) {
                    return true;
                }
            }
        }
        return false;
    }
}
