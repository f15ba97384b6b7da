package course.kit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import course.kit.charts.Charts;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

class ChartsTest {
    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    /** {@code n} tasks of 10 ms, two at a time: a fixed pool of 2's staircase. */
    static RunResult waves(String name, int n) {
        long[] s = new long[n], e = new long[n], ids = new long[n];
        for (int i = 0; i < n; i++) {
            s[i] = (i / 2) * 10_000_000L;
            e[i] = s[i] + 10_000_000L;
            ids[i] = 1 + i % 2;
        }
        return new RunResult(name, "fixed pool of 2", e[n - 1], s, e, ids, new boolean[n], null, Map.of());
    }

    static List<String> names(org.knowm.xchart.internal.chartpart.Chart<?, ?> c) {
        return c.getSeriesCollection().stream()
                .map(x -> ((org.knowm.xchart.internal.series.Series) x).getName())
                .toList();
    }

    static void assertPng(byte[] png, int width, int height) throws Exception {
        assertTrue(png.length > PNG_MAGIC.length);
        for (int i = 0; i < PNG_MAGIC.length; i++) assertEquals(PNG_MAGIC[i], png[i], "PNG signature byte " + i);
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(png));
        assertNotNull(img);
        assertEquals(width, img.getWidth());
        assertEquals(height, img.getHeight());
    }

    @Test
    void timelineDrawsOneBarPerTask() throws Exception {
        RunResult r = waves("café", 6);
        XYChart c = Charts.timeline(r);
        assertTrue(c.getTitle().startsWith("café — 6 tasks in "), c.getTitle());
        assertEquals(1, c.getSeriesCollection().size());
        XYSeries s = c.getSeries("café");
        assertNotNull(s, names(c).toString());
        double[] xs = s.getXData(), ys = s.getYData();
        assertEquals(3 * 6, xs.length, "start, end and a gap per task");
        for (int i = 0; i < 6; i++) {
            assertEquals(r.startNanos()[i] / 1e9, xs[3 * i], 1e-12);
            assertEquals(r.endNanos()[i] / 1e9, xs[3 * i + 1], 1e-12);
            assertEquals(i, ys[3 * i]);
            assertEquals(i, ys[3 * i + 1]);
            assertTrue(Double.isNaN(ys[3 * i + 2]), "the line breaks between tasks");
        }
        assertEquals(c.getWidth(), Charts.WIDTH);
        assertEquals(c.getHeight(), Charts.HEIGHT);
        assertPng(Charts.png(c), Charts.WIDTH, Charts.HEIGHT);
    }

    @Test
    void timelineSkipsTasksThatNeverStartedAndDrawsUnfinishedOnesToTheEnd() {
        RunResult r = new RunResult(
                "cut",
                "p",
                2_000_000_000L,
                new long[] {0, 500_000_000L, -1},
                new long[] {1_000_000_000L, -1, -1},
                new long[] {1, 2, 0},
                new boolean[3],
                null,
                Map.of());
        double[] xs = Charts.timeline(r).getSeries("cut").getXData();
        assertArrayEquals(new double[] {0, 1, 1, 0.5, 2, 2}, xs, 1e-12);
    }

    @Test
    void timelineOfAnEmptyRunStillDraws() throws Exception {
        RunResult r =
                new RunResult("none", "p", 0, new long[0], new long[0], new long[0], new boolean[0], null, Map.of());
        XYChart c = Charts.timeline(r);
        assertEquals(1, c.getSeries("none").getXData().length);
        assertPng(Charts.png(c), Charts.WIDTH, Charts.HEIGHT);
    }

    @Test
    void aLongTimelineDrawsASample() {
        int n = Charts.TIMELINE_MAX_TASKS * 2 + 1;
        XYChart c = Charts.timeline(waves("big", n));
        var s = c.getSeriesCollection().iterator().next();
        assertEquals("big (every 3th task)", s.getName());
        assertEquals(3 * ((n + 2) / 3), s.getXData().length);
        assertTrue(s.getXData().length / 3 <= Charts.TIMELINE_MAX_TASKS);
    }

    @Test
    void timelineWithAGivenAxisKeepsThatAxis() {
        XYChart c = Charts.timeline(waves("w", 4), 10.0);
        assertEquals(10.0 * 1.02, c.getStyler().getXAxisMax(), 1e-12);
        assertEquals(0.0, c.getStyler().getXAxisMin());
    }

    @Test
    void timelinesStackOneChartPerRun() throws Exception {
        BufferedImage img = Charts.timelines(waves("a", 4), waves("b", 8), waves("c", 2));
        assertEquals(Charts.WIDTH, img.getWidth());
        assertEquals(3 * Charts.HEIGHT, img.getHeight());
        assertPng(Charts.png(img), Charts.WIDTH, 3 * Charts.HEIGHT);
    }

    @Test
    void inFlightDrawsOneLinePerRun() throws Exception {
        XYChart c = Charts.inFlight("in flight", waves("fixed", 4), waves("other", 6));
        assertEquals("in flight", c.getTitle());
        assertEquals(List.of("fixed", "other"), names(c));
        XYSeries fixed = c.getSeries("fixed");
        assertEquals(400, fixed.getXData().length);
        assertEquals(2.0, fixed.getYData()[0], "two tasks in flight at the start");
        assertEquals(0.0, fixed.getYData()[399], "none at the end");
        assertPng(Charts.png(c), Charts.WIDTH, Charts.HEIGHT);
    }

    @Test
    void barsKeepInsertionOrder() throws Exception {
        var values = new LinkedHashMap<String, Number>();
        values.put("fixed pool", 50_000);
        values.put("virtual", 1_100.5);
        values.put("platform", 2_000L);
        CategoryChart c = Charts.bars("café", "elapsed (ms)", values);
        assertEquals("café", c.getTitle());
        assertEquals(1, c.getSeriesCollection().size());
        CategorySeries s = c.getSeries("elapsed (ms)");
        assertEquals(List.of("fixed pool", "virtual", "platform"), new ArrayList<>(s.getXData()));
        assertArrayEquals(new double[] {50_000, 1_100.5, 2_000}, s.getYData());
        assertPng(Charts.png(c), Charts.WIDTH, Charts.HEIGHT);
    }

    @Test
    void groupedBarsHaveOneSeriesPerName() throws Exception {
        Map<String, List<? extends Number>> series = new LinkedHashMap<>();
        series.put("wall", List.of(1, 2));
        series.put("cpu", List.of(0.5, 1.5));
        CategoryChart c = Charts.groupedBars("cost", "µs", List.of("platform", "virtual"), series);
        assertEquals(List.of("wall", "cpu"), names(c));
        assertArrayEquals(new double[] {0.5, 1.5}, c.getSeries("cpu").getYData());
        assertPng(Charts.png(c), Charts.WIDTH, Charts.HEIGHT);
    }

    @Test
    void groupedBarsRefuseAMissingValue() {
        Map<String, List<? extends Number>> series = Map.of("wall", List.of(1));
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> Charts.groupedBars("cost", "µs", List.of("platform", "virtual"), series));
        assertTrue(e.getMessage().contains("'wall' has 1 values for 2 categories"), e.getMessage());
    }

    @Test
    void linesDrawPredictionsDashedAndMeasurementsWithMarkers() throws Exception {
        Map<String, double[][]> series = new LinkedHashMap<>();
        series.put("measured", new double[][] {{1, 2, 3}, {10, 20, 30}});
        series.put("Predicted (Little's law)", new double[][] {{1, 3}, {10, 30}});
        XYChart c = Charts.lines("sweep", "pool size", "tasks/s", series);
        assertEquals(List.of("measured", "Predicted (Little's law)"), names(c));
        XYSeries measured = c.getSeries("measured");
        XYSeries predicted = c.getSeries("Predicted (Little's law)");
        assertArrayEquals(new double[] {10, 20, 30}, measured.getYData());
        assertEquals(SeriesMarkers.CIRCLE, measured.getMarker());
        assertNull(
                measured.getLineStyle() == null ? null : measured.getLineStyle().getDashArray(), "measured is solid");
        assertEquals(SeriesMarkers.NONE, predicted.getMarker());
        assertNotNull(predicted.getLineStyle().getDashArray(), "predicted is dashed");
        assertPng(Charts.png(c), Charts.WIDTH, Charts.HEIGHT);
    }

    @Test
    void xyIsAnEmptyChartInTheCourseStyle() {
        XYChart c = Charts.xy("mine", "x", "y");
        assertEquals("mine", c.getTitle());
        assertEquals("x", c.getXAxisTitle());
        assertEquals("y", c.getYAxisTitle());
        assertTrue(c.getSeriesCollection().isEmpty());
    }

    @Test
    void imageAndStackHaveTheChartsSizes() {
        BufferedImage one = Charts.image(Charts.xy("a", "x", "y"));
        assertEquals(Charts.WIDTH, one.getWidth());
        assertEquals(Charts.HEIGHT, one.getHeight());
        BufferedImage two = Charts.stack(Charts.xy("a", "x", "y"), Charts.timeline(waves("w", 2)));
        assertEquals(Charts.WIDTH, two.getWidth());
        assertEquals(2 * Charts.HEIGHT, two.getHeight());
    }
}
