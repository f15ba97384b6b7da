package course.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class StopCheckWeaverTest {

    private static final String SNIPPETS = "REPL.Snippets";

    @AfterEach
    void clearStop() {
        CellStop.clear();
    }

    private static Method method(boolean woven, String name, Class<?>... params) throws Exception {
        Class<?> c = Class.forName(SNIPPETS, true, new WeavingLoader(woven));
        return c.getMethod(name, params);
    }

    /** Runs a static snippet method on a new daemon platform thread; what it threw lands in {@code thrown}. */
    private static Thread runOnThread(Method m, AtomicReference<Throwable> thrown, Object... args) {
        Thread t = Thread.ofPlatform().daemon().name("snippet").unstarted(() -> {
            try {
                m.invoke(null, args);
            } catch (InvocationTargetException e) {
                thrown.set(e.getCause());
            } catch (ReflectiveOperationException e) {
                thrown.set(e);
            }
        });
        t.start();
        return t;
    }

    private static long checkCalls(byte[] bytes, String methodName) {
        ClassModel model = ClassFile.of().parse(bytes);
        MethodModel m = model.methods().stream()
                .filter(mm -> mm.methodName().equalsString(methodName))
                .findFirst()
                .orElseThrow();
        return m.code()
                .orElseThrow()
                .elementStream()
                .filter(e -> e instanceof InvokeInstruction i
                        && i.owner().asInternalName().equals("course/kernel/CellStop")
                        && i.name().equalsString("check"))
                .count();
    }

    @Test
    @DisplayName("a woven while(true){} on a platform thread ends with CellInterruptedError once a stop is requested")
    void wovenCpuLoopStops() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = runOnThread(method(true, "spin"), thrown);
        t.join(300);
        assertTrue(t.isAlive(), "the loop runs while no stop is requested");
        CellStop.request();
        t.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(t.isAlive(), "the loop ended after the stop request");
        assertInstanceOf(CellInterruptedError.class, thrown.get());
    }

    @Test
    @DisplayName("a CPU loop in a lambda on a virtual thread stops too")
    void wovenLambdaOnVirtualThreadStops() throws Exception {
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        CellStop.installQuietUncaughtHandler(); // as the launcher does: a stopped thread ends without a trace
        try {
            CountDownLatch started = new CountDownLatch(1);
            Thread vt = (Thread)
                    method(true, "spinOnVirtualThread", CountDownLatch.class).invoke(null, started);
            assertTrue(started.await(10, TimeUnit.SECONDS));
            assertTrue(vt.isVirtual());
            CellStop.request();
            assertTrue(vt.join(java.time.Duration.ofSeconds(10)), "the virtual thread's loop ended");
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }

    @Test
    @DisplayName("the same code, not woven, ignores the stop request (the check is what stops it)")
    void unwovenCodeIgnoresStop() throws Exception {
        CellStop.request();
        assertEquals(4_950L, method(false, "countTo", long.class).invoke(null, 100L));
        InvocationTargetException e = assertThrows(
                InvocationTargetException.class,
                () -> method(true, "countTo", long.class).invoke(null, 100L));
        assertInstanceOf(CellInterruptedError.class, e.getCause());
    }

    @Test
    @DisplayName("woven code behaves exactly as before while no stop is requested")
    void wovenCodeRunsNormally() throws Exception {
        assertEquals(42, method(true, "answer").invoke(null));
        assertEquals(499_500L, method(true, "countTo", long.class).invoke(null, 1_000L));
        // pick() merges two snippet classes at a loop head: its frames were recomputed with the loader's hierarchy
        assertEquals("circle3", method(true, "pick", int.class).invoke(null, 5));
        assertEquals("circle6", method(true, "pick", int.class).invoke(null, 8));
    }

    @Test
    @DisplayName("checks sit at method entry and before each backward branch, and never in the static initialiser")
    void checkPlacement() {
        byte[] woven = StopCheckWeaver.weave(WeavingLoader.bytesOf(SNIPPETS), new WeavingLoader(false));
        assertEquals(1, checkCalls(woven, "answer"), "entry only: no loop");
        assertEquals(2, checkCalls(woven, "spin"), "entry and the loop's jump back");
        assertEquals(2, checkCalls(woven, "countTo"));
        assertEquals(0, checkCalls(woven, "<clinit>"));
        assertNotEquals(0, checkCalls(woven, "pick"));
    }

    @Test
    @DisplayName("a class whose static initialiser loops still initialises while a stop is requested")
    void staticInitialiserIsNotStopped() throws Exception {
        CellStop.request();
        Class<?> c = Class.forName(SNIPPETS, true, new WeavingLoader(true));
        int[] squares = (int[]) c.getField("SQUARES").get(null);
        assertEquals(225, squares[15]);
    }

    @Test
    @DisplayName("constructors of snippet classes are checked on entry")
    void constructorsAreChecked() throws Exception {
        Class<?> circle = Class.forName(SNIPPETS + "$Circle", true, new WeavingLoader(true));
        assertEquals(
                "circle1",
                circle.getMethod("name").invoke(circle.getConstructor(int.class).newInstance(1)));
        CellStop.request();
        InvocationTargetException e = assertThrows(
                InvocationTargetException.class,
                () -> circle.getConstructor(int.class).newInstance(2));
        assertInstanceOf(CellInterruptedError.class, e.getCause());
    }

    @Test
    @DisplayName("only JShell's REPL package is woven")
    void onlySnippetClasses() {
        assertTrue(StopCheckWeaver.isSnippetClass("REPL/$JShell$12"));
        assertTrue(StopCheckWeaver.isSnippetClass("REPL/$JShell$12$Point"));
        assertFalse(StopCheckWeaver.isSnippetClass("course/kit/Run"));
        assertFalse(StopCheckWeaver.isSnippetClass("java/lang/Thread"));
        assertFalse(StopCheckWeaver.isSnippetClass("REPLY/Other"));
        assertFalse(StopCheckWeaver.isSnippetClass(null));
    }

    @Test
    @DisplayName("the agent transforms snippet classes only, and leaves redefinitions alone")
    void agentFilter() {
        StopAgent agent = new StopAgent();
        byte[] bytes = WeavingLoader.bytesOf(SNIPPETS);
        assertEquals(null, agent.transform(null, "course/kit/Run", null, null, bytes));
        assertEquals(null, agent.transform(null, "REPL/Snippets", Object.class, null, bytes));
        byte[] woven = agent.transform(new WeavingLoader(false), "REPL/Snippets", null, null, bytes);
        assertEquals(2, checkCalls(woven, "spin"));
    }
}
