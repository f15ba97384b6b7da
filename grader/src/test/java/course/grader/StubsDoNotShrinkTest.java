package course.grader;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.opentest4j.AssertionFailedError;

/**
 * {@link StubsDoNotShrink}, registered as the grader's test JVMs register it (the service file in the grader's
 * classes), on properties run with the grader's own jqwik configuration: a property that fails on a stub runs
 * once, one that fails another way is still shrunk.
 */
class StubsDoNotShrinkTest {
    static final Map<String, AtomicInteger> RUNS = new ConcurrentHashMap<>();

    static void ran(String property) {
        RUNS.computeIfAbsent(property, p -> new AtomicInteger()).incrementAndGet();
    }

    /** Properties that always fail; run only through {@link #run} (Surefire leaves nested classes alone). */
    public static class Fixture {
        @Property(seed = "7", tries = 50)
        void stub(@ForAll @IntRange(min = 0, max = 1_000_000) int n) {
            ran("stub");
            throw new UnsupportedOperationException("Fixture.stub is not written yet (see the README)");
        }

        @Property(seed = "7", tries = 50)
        void stubBehindAnAssertion(@ForAll @IntRange(min = 0, max = 1_000_000) int n) {
            ran("stubBehindAnAssertion");
            assertDoesNotThrow(() -> {
                throw new UnsupportedOperationException("Fixture.call is not written yet");
            });
        }

        @Property(seed = "7", tries = 50)
        void bug(@ForAll @IntRange(min = 0, max = 1_000_000) int n) {
            ran("bug");
            throw new IllegalStateException("wrong for " + n);
        }

        @Property(seed = "7", tries = 50)
        void anotherUnsupportedOperation(@ForAll @IntRange(min = 0, max = 1_000_000) int n) {
            ran("anotherUnsupportedOperation");
            throw new UnsupportedOperationException("List.of(…) is immutable");
        }
    }

    @Test
    void aPropertyThatFailsOnAStubRunsOnceAndAnyOtherFailureIsShrunk(@TempDir Path work) {
        RUNS.clear();
        Map<String, TestExecutionResult.Status> ended = new ConcurrentHashMap<>();
        var request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(Fixture.class))
                .configurationParameters(PropertyTests.configuration(work, true))
                .build();
        LauncherFactory.create().execute(request, new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (id.isTest()) ended.put(id.getDisplayName(), result.getStatus());
            }
        });
        assertEquals(4, ended.size(), "the fixture's properties ran: " + ended);
        assertTrue(ended.values().stream().allMatch(TestExecutionResult.Status.FAILED::equals), "all fail: " + ended);
        assertEquals(1, RUNS.get("stub").get(), "a stub's property is not shrunk");
        assertEquals(1, RUNS.get("stubBehindAnAssertion").get(), "nor when the stub's exception is a cause");
        assertTrue(RUNS.get("bug").get() > 1, "a wrong result is still shrunk: " + RUNS);
        assertTrue(RUNS.get("anotherUnsupportedOperation").get() > 1, "another UnsupportedOperationException too");
    }

    @Test
    void aStubIsTheNotWrittenYetExceptionAnywhereAmongTheCauses() {
        var stub = new UnsupportedOperationException("Cafe.serve is not written yet: one task per customer");
        assertTrue(StubsDoNotShrink.isStub(stub));
        assertTrue(StubsDoNotShrink.isStub(new AssertionFailedError("Unexpected exception thrown", stub)));
        var suppressing = new IllegalStateException("closing");
        suppressing.addSuppressed(stub);
        assertTrue(StubsDoNotShrink.isStub(suppressing));
        assertFalse(StubsDoNotShrink.isStub(new UnsupportedOperationException()));
        assertFalse(StubsDoNotShrink.isStub(new IllegalStateException("not written yet")));
    }
}
