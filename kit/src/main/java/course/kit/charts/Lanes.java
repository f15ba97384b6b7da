package course.kit.charts;

import course.kit.Format;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A picture of threads over time: one lane per thread, a bar for each stretch it ran, coloured by what ran
 * (a virtual thread, or a task). {@link Charts#carriers} draws a {@link CarrierTimeline} this way (lanes = the
 * carriers), {@link Charts#lanes} a {@link RunResult} (lanes = the threads that ran its tasks), in the same
 * colours and scale; in the notebook it shows as a PNG, with its legend as text.
 *
 * <pre>{@code
 * Charts.carriers(trace.stop())        // one lane per carrier, bars = mounts
 * Charts.lanes(pool)                   // one lane per pool thread, bars = tasks
 * }</pre>
 *
 * Every bar is at least one pixel wide, so a mount of a few microseconds still shows. Drawn with Java2D
 * straight into an image: 100,000 bars take milliseconds.
 */
public final class Lanes {
    /** The most lanes drawn; beyond, the first ones in name order, and a note says how many were left out. */
    public static final int MAX_LANES = 512;

    /** The colours of virtual threads or tasks, cycled: number k gets {@code PALETTE[k % PALETTE.length]}. */
    static final Color[] PALETTE = {
        new Color(0x1f77b4),
        new Color(0xff7f0e),
        new Color(0x2ca02c),
        new Color(0xd62728),
        new Color(0x9467bd),
        new Color(0x8c564b),
        new Color(0xe377c2),
        new Color(0x393b79),
        new Color(0xbcbd22),
        new Color(0x17becf)
    };

    static final Color BACKGROUND = Color.WHITE;
    private static final Color LANE = new Color(0xf3f3f3);
    private static final Color INK = new Color(0x333333);
    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 14);
    private static final Font TEXT = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
    private static final int TOP = 44, RIGHT = 18, AXIS = 34, LINE = 15, BOTTOM = 8;

    private final String title;
    private final String subtitle;
    private final List<String> lanes;
    private final int[] lane, colour;
    private final long[] starts, ends;
    private final long spanNanos;
    private final String noun;
    private final boolean marks;
    private final List<String> notes;
    private final int laneHeight, left, width;
    private BufferedImage image;

    Lanes(
            String title,
            List<String> laneNames,
            int[] lane,
            int[] colour,
            long[] starts,
            long[] ends,
            long spanNanos,
            String noun,
            String subtitle,
            boolean marks,
            List<String> notes,
            int width) {
        this.title = title;
        this.subtitle = subtitle;
        this.noun = noun;
        this.marks = marks;
        var n = new ArrayList<>(notes);
        if (laneNames.size() > MAX_LANES) {
            n.add(String.format(Locale.ROOT, "only the first %,d of %,d lanes are drawn", MAX_LANES, laneNames.size()));
        }
        this.notes = List.copyOf(n);
        this.lanes = List.copyOf(laneNames.subList(0, Math.min(MAX_LANES, laneNames.size())));
        this.lane = lane;
        this.colour = colour;
        this.starts = starts;
        this.ends = ends;
        long last = 0;
        for (int i = 0; i < ends.length; i++) last = Math.max(last, Math.max(ends[i], starts[i]));
        this.spanNanos = Math.max(1, Math.max(spanNanos, last));
        int k = Math.max(1, lanes.size());
        laneHeight = k <= 8 ? 26 : k <= 24 ? 18 : k <= 64 ? 8 : Math.max(1, 480 / k);
        this.width = width;
        left = labelWidth();
    }

    /** The title drawn above the lanes. */
    public String title() {
        return title;
    }

    /** The lanes' names, top to bottom. */
    public List<String> lanes() {
        return lanes;
    }

    /** What the picture could not show, as drawn under it. */
    public List<String> notes() {
        return notes;
    }

    /** The legend: one line per lane (busy time, share of the wall time, how many bars), or a summary of many. */
    public List<String> legend() {
        int k = lanes.size();
        long[] busy = new long[k];
        int[] bars = new int[k];
        for (int i = 0; i < lane.length; i++) {
            if (lane[i] < 0 || lane[i] >= k) continue;
            busy[lane[i]] += Math.max(0, ends[i] - starts[i]);
            bars[lane[i]]++;
        }
        var out = new ArrayList<String>();
        String wall = Format.millis(spanNanos / 1e6);
        if (k <= 16) {
            for (int l = 0; l < k; l++) {
                out.add(String.format(
                        Locale.ROOT,
                        "%s: busy %s of %s (%s), %,d %s",
                        lanes.get(l),
                        Format.millis(busy[l] / 1e6),
                        wall,
                        percent(busy[l]),
                        bars[l],
                        noun));
            }
        } else {
            long bMin = Long.MAX_VALUE, bMax = 0;
            int nMin = Integer.MAX_VALUE, nMax = 0;
            for (int l = 0; l < k; l++) {
                bMin = Math.min(bMin, busy[l]);
                bMax = Math.max(bMax, busy[l]);
                nMin = Math.min(nMin, bars[l]);
                nMax = Math.max(nMax, bars[l]);
            }
            String lo = Format.millis(bMin / 1e6), hi = Format.millis(bMax / 1e6);
            String pLo = percent(bMin), pHi = percent(bMax);
            out.add(String.format(
                    Locale.ROOT,
                    "%,d lanes: each busy %s of %s (%s), %s %s each",
                    k,
                    lo.equals(hi) ? lo : lo + " to " + hi,
                    wall,
                    pLo.equals(pHi) ? pLo : pLo + " to " + pHi,
                    nMin == nMax
                            ? String.format(Locale.ROOT, "%,d", nMin)
                            : String.format(Locale.ROOT, "%,d to %,d", nMin, nMax),
                    noun));
        }
        return out;
    }

    private String percent(long busy) {
        double p = 100.0 * busy / spanNanos;
        return p >= 10 || p == 0
                ? String.format(Locale.ROOT, "%.0f%%", p)
                : p >= 0.1 ? String.format(Locale.ROOT, "%.1f%%", p) : String.format(Locale.ROOT, "%.3f%%", p);
    }

    /** The picture. */
    public synchronized BufferedImage image() {
        if (image == null) image = draw();
        return image;
    }

    /** The picture as PNG bytes. */
    public byte[] png() {
        return Png.encode(image());
    }

    /** The title, the legend and the notes, as text. */
    @Override
    public String toString() {
        var b = new StringBuilder(title);
        for (String l : legend()) b.append("\n  ").append(l);
        for (String n : notes) b.append("\n  ⚑ ").append(n);
        return b.toString();
    }

    // ------------------------------------------------------------------------------------------ geometry

    /** The top pixel row of lane {@code l}. */
    int laneTop(int l) {
        return TOP + l * laneHeight;
    }

    /** A lane's height in pixels, its gap included. */
    int laneHeight() {
        return laneHeight;
    }

    /** The pixel height of a bar in a lane. */
    int barHeight() {
        return laneHeight >= 8 ? laneHeight - 2 : laneHeight;
    }

    /** The pixel column of {@code nanos} from the start. */
    int x(long nanos) {
        return left + (int) Math.floor((double) nanos * plotWidth() / spanNanos);
    }

    private int plotWidth() {
        return width - left - RIGHT;
    }

    private int labelWidth() {
        var probe = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB).createGraphics();
        FontMetrics fm = probe.getFontMetrics(TEXT);
        int w = 0;
        for (String l : lanes) w = Math.max(w, fm.stringWidth(l));
        probe.dispose();
        return Math.clamp(w + 12, 70, 240);
    }

    private int plotBottom() {
        return TOP + Math.max(1, lanes.size()) * laneHeight;
    }

    private BufferedImage draw() {
        List<String> legend = legend();
        int textLines = legend.size() + notes.size() + 1;
        int height = plotBottom() + AXIS + textLines * LINE + BOTTOM;
        var img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setColor(BACKGROUND);
            g.fillRect(0, 0, width, height);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(INK);
            g.setFont(TITLE);
            g.drawString(title, 10, 18);
            g.setFont(TEXT);
            g.setColor(Color.GRAY);
            g.drawString(subtitle, 10, 34);
            drawLanes(g);
            drawBars(g);
            drawAxis(g);
            int y = plotBottom() + AXIS + LINE - 3;
            g.setColor(INK);
            for (String l : legend) {
                g.drawString(l, 10, y);
                y += LINE;
            }
            g.setColor(new Color(0xb35900));
            for (String n : notes) {
                g.drawString("⚑ " + n, 10, y);
                y += LINE;
            }
        } finally {
            g.dispose();
        }
        return img;
    }

    private void drawLanes(Graphics2D g) {
        FontMetrics fm = g.getFontMetrics(TEXT);
        int every = Math.max(1, (int) Math.ceil(fm.getHeight() / (double) laneHeight));
        for (int l = 0; l < lanes.size(); l++) {
            if (laneHeight >= 8 || l % 2 == 0) {
                g.setColor(LANE);
                g.fillRect(left, laneTop(l), plotWidth(), barHeight());
            }
            if (l % every == 0) {
                g.setColor(INK);
                int base = laneTop(l) + Math.max(barHeight(), fm.getAscent()) / 2 + fm.getAscent() / 2 - 1;
                String name = lanes.get(l);
                g.drawString(name, left - 6 - fm.stringWidth(name), Math.min(base, laneTop(l) + fm.getAscent()));
            }
        }
        if (lanes.isEmpty()) {
            g.setColor(Color.GRAY);
            g.drawString("nothing recorded", left + 6, TOP + laneHeight - 6);
        }
    }

    private void drawBars(Graphics2D g) {
        int h = barHeight();
        for (int i = 0; i < lane.length; i++) {
            int l = lane[i];
            if (l < 0 || l >= lanes.size()) continue;
            int x0 = x(Math.max(0, starts[i]));
            int x1 = x(Math.max(starts[i], ends[i]));
            g.setColor(PALETTE[Math.floorMod(colour[i], PALETTE.length)]);
            int w = x1 - x0;
            // a hairline between bars wide enough to spare it, so that one task after another reads as two
            g.fillRect(x0, laneTop(l), Math.max(marks ? 2 : 1, w >= 4 ? w - 1 : w), h);
        }
    }

    private void drawAxis(Graphics2D g) {
        int y = plotBottom() + 2;
        g.setColor(INK);
        g.drawLine(left, y, left + plotWidth(), y);
        double spanMs = spanNanos / 1e6;
        double step = niceStep(spanMs / 8);
        FontMetrics fm = g.getFontMetrics(TEXT);
        for (int k = 0; k * step <= spanMs * 1.0001; k++) {
            double ms = k * step;
            int x = x((long) (ms * 1e6));
            g.drawLine(x, y, x, y + 4);
            String label = tick(ms, step);
            g.drawString(label, x - fm.stringWidth(label) / 2, y + 16);
        }
        String axis = "time since start (ms)";
        g.setColor(Color.GRAY);
        g.drawString(axis, left + plotWidth() - fm.stringWidth(axis), y + 30);
    }

    private static double niceStep(double raw) {
        if (!(raw > 0)) return 1;
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) if (m * p >= raw) return m * p;
        return 10 * p;
    }

    private static String tick(double ms, double step) {
        if (step >= 1) return String.format(Locale.ROOT, "%,.0f", ms);
        int decimals = (int) Math.ceil(-Math.log10(step));
        return String.format(Locale.ROOT, "%." + decimals + "f", ms);
    }
}
