package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReproductionTest {

    @Test
    void ratioIsMeasuredOverPredicted() {
        var r = new Reproduction(
                "10,000 × sleep 1 s on a fixed pool of 200", "000", "50,215 ms", 50_000, 50_500, "ms", "");
        assertEquals(1.01, r.ratio(), 1e-12);
        assertEquals("ms", r.unit());
    }

    @Test
    void ratioWithoutAPredictionIsNaN() {
        assertTrue(Double.isNaN(new Reproduction("x", "001", "?", 0, 12, "ms", "no prediction").ratio()));
    }
}
