package course.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import jdk.jshell.JShell;
import jdk.jshell.SourceCodeAnalysis;
import jdk.jshell.SourceCodeAnalysis.Documentation;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SourceJavadocTest {

    @Test
    @DisplayName("JShell's method signatures: owner, name and parameter types; constructors are left to JShell")
    void signatures() {
        assertEquals(
                new SourceJavadoc.Method("Thread.Builder", "start", List.of("Runnable")),
                SourceJavadoc.parse("Thread Thread.Builder.start(Runnable)"));
        assertEquals(
                new SourceJavadoc.Method("course.kit.Check", "timing", List.of("String", "Band", "Attempt", "Reading")),
                SourceJavadoc.parse(
                        "T course.kit.Check.<T>timing(String what, course.kit.Band band, "
                                + "course.kit.Check.Attempt<T> attempt, course.kit.Check.Reading<T> reading) throws Exception"));
        assertEquals(
                new SourceJavadoc.Method("ExecutorService", "invokeAll", List.of("Collection")),
                SourceJavadoc.parse("List<Future<T>> ExecutorService.<T extends Object>invokeAll("
                        + "Collection<? extends Callable<T>> tasks) throws InterruptedException"));
        assertEquals(
                List.of("String[]"),
                SourceJavadoc.parse("void A.f(String... xs)").parameterTypes());
        assertNull(SourceJavadoc.parse("Semaphore(int permits)"));
        assertNull(SourceJavadoc.parse("java.util.concurrent.Semaphore"));
    }

    @Test
    @DisplayName("the Thread.Builder methods JShell 25 gives no Javadoc for get theirs from src.zip")
    void threadBuilder() throws Exception {
        List<Path> roots = JavadocSources.jdkSourceRoots();
        assumeTrue(!roots.isEmpty(), "this JDK has no lib/src.zip");
        try (JShell shell = JShell.builder().executionEngine("local").build()) {
            SourceCodeAnalysis sca = shell.sourceCodeAnalysis();
            String code = "Thread.ofVirtual().start(";
            List<Documentation> jshell = sca.documentation(code, code.length(), true);
            assertEquals(
                    "Thread Thread.Builder.start(Runnable)", jshell.getFirst().signature());
            List<Documentation> filled = SourceJavadoc.fill(sca, jshell, roots);
            String javadoc = filled.getFirst().javadoc();
            assertTrue(javadoc != null && javadoc.contains("schedules it to execute"), String.valueOf(javadoc));
            String factory = SourceJavadoc.find(sca, "ThreadFactory Thread.Builder.factory()", roots);
            assertTrue(factory != null && factory.contains("ThreadFactory"), String.valueOf(factory));
            assertNull(SourceJavadoc.find(sca, "void Thread.Builder.noSuchMethod()", roots));
        }
    }
}
