package course.kit.diagnostics;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Objects;
import java.util.function.IntBinaryOperator;

/**
 * The C library's {@code qsort}, called through the Foreign Function &amp; Memory API (final since JDK 22), with
 * a Java comparator that C calls back (an <em>upcall</em>). While the comparator runs, a native frame
 * ({@code qsort}) is on the thread's stack, so a virtual thread that blocks in the comparator cannot leave
 * its carrier: it is pinned.
 *
 * <p>Whatever the comparator throws (an interrupt included) is kept, the comparison answers 0, and the
 * exception is thrown again once {@code qsort} has returned: an exception must never cross a native frame
 * (the JVM would stop).
 */
public final class NativeSort {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final FunctionDescriptor COMPARE =
            FunctionDescriptor.of(JAVA_INT, ADDRESS.withTargetLayout(JAVA_INT), ADDRESS.withTargetLayout(JAVA_INT));
    private static final MethodHandle QSORT = LINKER.downcallHandle(
            LINKER.defaultLookup().find("qsort").orElseThrow(),
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
    private static final MethodHandle CALL;

    static {
        try {
            CALL = MethodHandles.lookup()
                    .findStatic(
                            NativeSort.class,
                            "call",
                            MethodType.methodType(int.class, Call.class, MemorySegment.class, MemorySegment.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private NativeSort() {}

    /** One sort's comparator and the first thing it threw. */
    private static final class Call {
        final IntBinaryOperator comparator;
        Throwable thrown;

        Call(IntBinaryOperator comparator) {
            this.comparator = comparator;
        }
    }

    /** Sorts {@code values} in place with C's {@code qsort}, comparing with {@code comparator}. */
    public static void sort(int[] values, IntBinaryOperator comparator) {
        Objects.requireNonNull(values, "values");
        Call call = new Call(Objects.requireNonNull(comparator, "comparator"));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocateFrom(JAVA_INT, values);
            MemorySegment stub = LINKER.upcallStub(MethodHandles.insertArguments(CALL, 0, call), COMPARE, arena);
            QSORT.invokeExact(array, (long) values.length, 4L, stub);
            MemorySegment.copy(array, JAVA_INT, 0, values, 0, values.length);
        } catch (Throwable t) {
            throw new IllegalStateException("qsort failed", t);
        }
        if (call.thrown instanceof RuntimeException r) throw r;
        if (call.thrown instanceof Error e) throw e;
        if (call.thrown != null) throw new IllegalStateException(call.thrown);
    }

    @SuppressWarnings("unused") // called from C through the upcall stub
    private static int call(Call call, MemorySegment a, MemorySegment b) {
        if (call.thrown != null) return 0;
        try {
            return call.comparator.applyAsInt(a.get(JAVA_INT, 0), b.get(JAVA_INT, 0));
        } catch (Throwable t) {
            call.thrown = t;
            return 0;
        }
    }
}
