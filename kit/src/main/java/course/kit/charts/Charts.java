package course.kit.charts;

import course.kit.CarrierTimeline;
import course.kit.Format;
import course.kit.RunResult;
import course.kit.TaskRecord;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The course's charts, drawn with XChart. Each method returns the XChart object, so a learner can restyle
 * it; in the notebook a chart shows as an inline PNG (as a cell's last value, or with {@code display}).
 */
public final class Charts {
    /** Default size of one chart, in pixels. */
    public static final int WIDTH = 860, HEIGHT = 360;
    /** The most tasks a timeline draws: beyond that it draws an evenly spaced sample. */
    public static final int TIMELINE_MAX_TASKS = 1_500;

    private static final Color[] PALETTE = {
        new Color(0x1f77b4),
        new Color(0xd62728),
        new Color(0x2ca02c),
        new Color(0xff7f0e),
        new Color(0x9467bd),
        new Color(0x8c564b),
        new Color(0x17becf)
    };

    private Charts() {}

    /** The course's colour of series number {@code k} (from 0), the palette cycled. */
    public static Color colour(int k) {
        return PALETTE[Math.floorMod(k, PALETTE.length)];
    }

    /**
     * Every task of a run as a horizontal bar from its start to its end; tasks stacked in submission order.
     * A fixed pool draws a staircase (one step per wave of tasks); virtual threads draw one block.
     */
    public static XYChart timeline(RunResult run) {
        return timeline(run, run.elapsedSeconds());
    }

    /** {@link #timeline(RunResult)} with a fixed end of the time axis, to compare runs at one scale. */
    public static XYChart timeline(RunResult run, double axisSeconds) {
        return timeline(run, axisSeconds, colour(0));
    }

    private static XYChart timeline(RunResult run, double axisSeconds, Color color) {
        XYChart c = xy(
                String.format("%s — %,d tasks in %.2f s", run.name(), run.count(), run.elapsedSeconds()),
                "time since start (s)",
                "task # (submission order)");
        addTimeline(c, run, color);
        c.getStyler().setLegendVisible(false);
        c.getStyler().setXAxisMin(0.0);
        c.getStyler().setXAxisMax(Math.max(axisSeconds, 1e-3) * 1.02);
        c.getStyler().setYAxisMin(0.0);
        if (run.count() >= 10) {
            c.getStyler().setYAxisDecimalPattern("#,##0"); // task numbers, not fractions of one
        }
        return c;
    }

    /** Timelines of several runs, one under the other, on the same time axis: the picture is the comparison. */
    public static BufferedImage timelines(RunResult... runs) {
        double axis =
                Arrays.stream(runs).mapToDouble(RunResult::elapsedSeconds).max().orElse(1);
        List<Chart<?, ?>> charts = new ArrayList<>();
        for (RunResult r : runs) {
            charts.add(timeline(r, axis, colour(charts.size())));
        }
        return stack(charts.toArray(Chart[]::new));
    }

    private static void addTimeline(XYChart c, RunResult run, Color color) {
        long[] starts = run.startNanos(), ends = run.endNanos();
        int n = starts.length;
        int step = Math.max(1, (int) Math.ceil(n / (double) TIMELINE_MAX_TASKS));
        List<Double> xs = new ArrayList<>(), ys = new ArrayList<>();
        for (int i = 0; i < n; i += step) {
            if (starts[i] < 0) continue;
            double e = (ends[i] < 0 ? run.elapsedSeconds() * 1e9 : ends[i]) / 1e9;
            xs.add(starts[i] / 1e9);
            ys.add((double) i);
            xs.add(e);
            ys.add((double) i);
            xs.add(e);
            ys.add(null); // a gap: XChart breaks the line at a null
        }
        if (xs.isEmpty()) {
            xs.add(0.0);
            ys.add(0.0);
        }
        XYSeries s = c.addSeries(run.name() + (step > 1 ? " (every " + step + "th task)" : ""), xs, ys);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(color);
        s.setLineWidth(n / step > 600 ? 1f : 2f);
    }

    /**
     * Which carrier ran which virtual thread, over time: one lane per carrier, each mount a bar coloured by its
     * virtual thread, a legend line per carrier with its busy time and how many mounts; what the trace could not
     * attribute is written under it. See {@link CarrierTrace}.
     *
     * <pre>{@code
     * var trace = CarrierTrace.start("virtual thread per customer");
     * try (var staff = Executors.newThreadPerTaskExecutor(trace.factory())) { ... }
     * Charts.carriers(trace.stop())
     * }</pre>
     */
    public static Lanes carriers(CarrierTimeline timeline) {
        List<String> carriers = timeline.carriers();
        List<CarrierTimeline.Stretch> stretches = timeline.stretches();
        int n = stretches.size();
        int[] lane = new int[n], colour = new int[n];
        long[] s = new long[n], e = new long[n];
        for (int i = 0; i < n; i++) {
            CarrierTimeline.Stretch x = stretches.get(i);
            lane[i] = carriers.indexOf(x.carrier());
            colour[i] = x.thread();
            s[i] = x.startNanos();
            e[i] = x.endNanos();
        }
        String title = String.format(
                java.util.Locale.ROOT,
                "Carriers of %s — %,d virtual threads on %,d carrier%s, %s",
                timeline.name(),
                timeline.virtualThreads(),
                carriers.size(),
                carriers.size() == 1 ? "" : "s",
                Format.millis(timeline.elapsedMillis()));
        return new Lanes(
                title,
                carriers,
                lane,
                colour,
                s,
                e,
                timeline.elapsed().toNanos(),
                "stretches",
                "each bar one mount, coloured by its virtual thread",
                !timeline.exact(),
                timeline.notes(),
                WIDTH);
    }

    /**
     * The platform threads' side of {@link #carriers}: one lane per thread that ran the run's tasks (a pool's
     * threads), each task a bar from its start to its end, coloured by task, in the same colours and scale. A run on
     * virtual threads gets a lane per virtual thread, of which {@value Lanes#MAX_LANES} are drawn: trace those with a
     * {@link CarrierTrace} instead.
     */
    public static Lanes lanes(RunResult run) {
        List<TaskRecord> records = run.records();
        List<String> names = records.stream()
                .map(TaskRecord::thread)
                .distinct()
                .sorted(CarrierTimeline.NATURAL)
                .toList();
        var index = new java.util.HashMap<String, Integer>();
        for (int i = 0; i < names.size(); i++) index.put(names.get(i), i);
        int n = records.size();
        int[] lane = new int[n], colour = new int[n];
        long[] s = new long[n], e = new long[n];
        long elapsed = run.elapsed().toNanos();
        for (int i = 0; i < n; i++) {
            TaskRecord r = records.get(i);
            lane[i] = index.get(r.thread());
            colour[i] = r.index();
            s[i] = r.startNanos();
            e[i] = r.endNanos() < 0 ? elapsed : r.endNanos();
        }
        String kind = run.virtualTasks() == run.count() ? "virtual" : run.virtualTasks() == 0 ? "platform" : "";
        String title = String.format(
                java.util.Locale.ROOT,
                "Threads of %s — %,d tasks on %,d %sthread%s, %s",
                run.name(),
                run.count(),
                names.size(),
                kind.isEmpty() ? "" : kind + " ",
                names.size() == 1 ? "" : "s",
                Format.millis(run.elapsedMillis()));
        return new Lanes(
                title,
                names,
                lane,
                colour,
                s,
                e,
                elapsed,
                "tasks",
                "each bar one task, coloured by task",
                false,
                List.of(),
                WIDTH);
    }

    /** Tasks in flight over time, one line per run, on one chart. */
    public static XYChart inFlight(String title, RunResult... runs) {
        XYChart c = xy(title, "time since start (s)", "tasks in flight");
        int k = 0;
        for (RunResult r : runs) {
            double[][] pts = r.inFlightOverTime(400);
            XYSeries s = c.addSeries(r.name(), pts[0], pts[1]);
            s.setMarker(SeriesMarkers.NONE);
            s.setLineColor(colour(k++));
            s.setLineWidth(2f);
        }
        return c;
    }

    /** A bar per entry: {@code values} maps a label to its bar's height (insertion order is kept). */
    public static CategoryChart bars(String title, String yLabel, Map<String, ? extends Number> values) {
        CategoryChart c = category(title, yLabel);
        // as doubles: XChart formats a bar's label as a floating-point number, and a Long or Integer there fails
        c.addSeries(
                yLabel,
                new ArrayList<>(values.keySet()),
                values.values().stream().map(v -> (Number) v.doubleValue()).toList());
        c.getStyler().setLegendVisible(false);
        c.getStyler().setSeriesColors(PALETTE);
        return c;
    }

    /**
     * Grouped bars: one group per category, one bar per series in each group ({@code series} maps a
     * series name to one value per category, in the categories' order).
     */
    public static CategoryChart groupedBars(
            String title, String yLabel, List<String> categories, Map<String, List<? extends Number>> series) {
        CategoryChart c = category(title, yLabel);
        series.forEach((name, vals) -> {
            if (vals.size() != categories.size()) {
                throw new IllegalArgumentException("series '" + name + "' has " + vals.size() + " values for "
                        + categories.size() + " categories");
            }
            c.addSeries(name, categories, new ArrayList<Number>(vals));
        });
        c.getStyler().setSeriesColors(PALETTE);
        return c;
    }

    /**
     * A line chart of several series ({@code series} maps a name to {@code {xs, ys}}). A series whose name
     * starts with "predicted" is drawn dashed, so prediction and measurement read apart at a glance.
     */
    public static XYChart lines(String title, String xLabel, String yLabel, Map<String, double[][]> series) {
        XYChart c = xy(title, xLabel, yLabel);
        int k = 0;
        for (var e : series.entrySet()) {
            XYSeries s = c.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]);
            s.setLineColor(colour(k));
            s.setMarkerColor(colour(k));
            s.setLineWidth(2f);
            if (e.getKey().toLowerCase().startsWith("predicted")) {
                s.setLineStyle(new BasicStroke(
                        2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
                s.setMarker(SeriesMarkers.NONE);
            } else {
                s.setMarker(SeriesMarkers.CIRCLE);
            }
            k++;
        }
        return c;
    }

    /** An empty XY chart in the course's style, for learners who want to draw their own. */
    public static XYChart xy(String title, String xLabel, String yLabel) {
        XYChart c = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .xAxisTitle(xLabel)
                .yAxisTitle(yLabel)
                .build();
        style(c.getStyler());
        return c;
    }

    private static CategoryChart category(String title, String yLabel) {
        CategoryChart c = new CategoryChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .yAxisTitle(yLabel)
                .build();
        style(c.getStyler());
        c.getStyler().setLabelsVisible(true);
        c.getStyler().setLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        c.getStyler().setDecimalPattern("#,##0.##"); // bar labels as people write numbers, not 5,055.775619999999
        return c;
    }

    private static void style(Styler s) {
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBorderVisible(false);
        s.setLegendPosition(Styler.LegendPosition.InsideNE);
        s.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        s.setAntiAlias(true);
        if (s instanceof org.knowm.xchart.style.AxesChartStyler a) {
            a.setPlotGridLinesColor(new Color(0xdddddd));
            a.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        }
    }

    /** The chart as an image. */
    public static BufferedImage image(Chart<?, ?> chart) {
        return BitmapEncoder.getBufferedImage(chart);
    }

    /** Several charts as one image, one under the other. */
    public static BufferedImage stack(Chart<?, ?>... charts) {
        List<BufferedImage> imgs = Arrays.stream(charts).map(Charts::image).toList();
        int w = imgs.stream().mapToInt(BufferedImage::getWidth).max().orElse(1);
        int h = imgs.stream().mapToInt(BufferedImage::getHeight).sum();
        BufferedImage out = new BufferedImage(w, Math.max(h, 1), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
        int y = 0;
        for (BufferedImage i : imgs) {
            g.drawImage(i, 0, y, null);
            y += i.getHeight();
        }
        g.dispose();
        return out;
    }

    /** The chart as PNG bytes. */
    public static byte[] png(Chart<?, ?> chart) {
        return png(image(chart));
    }

    /** The image as PNG bytes. */
    public static byte[] png(BufferedImage image) {
        return Png.encode(image);
    }
}
