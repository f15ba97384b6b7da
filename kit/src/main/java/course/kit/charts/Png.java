package course.kit.charts;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.imageio.ImageIO;

/** An image as PNG bytes: what {@link Charts} and {@link Lanes} hand the notebook. */
final class Png {
    private Png() {}

    static byte[] encode(BufferedImage image) {
        try (var out = new ByteArrayOutputStream()) {
            ImageIO.write(image, "png", out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
