package course.kit.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class PinningTest {

    @Test
    void everyFreshCopyOfTheSlowClassPinsAgain() throws Exception {
        Class<?> a = Pinning.freshSlowInit();
        Class<?> b = Pinning.freshSlowInit();
        assertNotSame(a, b, "two loads give two classes");
        assertTrue(Pinning.classInitialiserPins(4) >= 1, "the first fresh copy pins");
        assertTrue(Pinning.classInitialiserPins(4) >= 1, "so does the next one");
    }

    @Test
    void aSleepUnderSynchronizedIsNotPinned() throws Exception {
        double[] r = Pinning.synchronizedCalls(20, java.time.Duration.ofMillis(15));
        assertEquals(0.0, r[1], "pinned parks");
    }
}
