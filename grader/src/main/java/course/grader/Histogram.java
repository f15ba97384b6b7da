package course.grader;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * The class report's score histogram as a PNG, drawn with the JDK's own 2D graphics (headless), so that the
 * grader needs no charting library: one bar per bin, its count above it, the bins' labels below.
 */
final class Histogram {
    private static final int WIDTH = 720;
    private static final int HEIGHT = 360;
    private static final Color BAR = new Color(0x4C72B0);

    private Histogram() {}

    /** A bar chart of {@code bins} (label to count), with a title and the x axis's title. */
    static byte[] png(String title, String xTitle, Map<String, Integer> bins) {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            int left = 50;
            int right = WIDTH - 20;
            int top = 50;
            int bottom = HEIGHT - 60;
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
            centred(g, title, WIDTH / 2, 25);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            centred(g, xTitle, (left + right) / 2, HEIGHT - 15);
            g.setStroke(new BasicStroke(1f));
            g.drawLine(left, bottom, right, bottom);
            g.drawLine(left, top, left, bottom);
            List<Map.Entry<String, Integer>> entries = List.copyOf(bins.entrySet());
            int most = Math.max(
                    1, entries.stream().mapToInt(Map.Entry::getValue).max().orElse(1));
            double slot = (right - left) / (double) Math.max(1, entries.size());
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            for (int i = 0; i < entries.size(); i++) {
                int count = entries.get(i).getValue();
                int h = (int) Math.round((bottom - top) * (double) count / most);
                int x = (int) Math.round(left + i * slot + slot * 0.15);
                int w = (int) Math.round(slot * 0.7);
                g.setColor(BAR);
                g.fillRect(x, bottom - h, w, h);
                g.setColor(Color.BLACK);
                int middle = x + w / 2;
                if (count > 0) {
                    centred(g, Integer.toString(count), middle, bottom - h - 4);
                }
                centred(g, entries.get(i).getKey(), middle, bottom + 16);
            }
        } finally {
            g.dispose();
        }
        var out = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void centred(Graphics2D g, String text, int x, int baseline) {
        FontMetrics m = g.getFontMetrics();
        g.drawString(text, x - m.stringWidth(text) / 2, baseline);
    }
}
