package course.kit.diagnostics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A named pipe (a FIFO, made with {@code mkfifo}) in a fresh temporary folder; {@link #close()} deletes it
 * and the folder. Reading a FIFO is file I/O: a virtual thread blocked in the read keeps its carrier.
 *
 * <pre>{@code
 * try (var fifo = Fifo.create(); var writer = new RandomAccessFile(fifo.path().toFile(), "rw")) {
 *     // readers: new FileInputStream(fifo.path().toFile()).read()
 * }
 * }</pre>
 */
public final class Fifo implements AutoCloseable {
    private final Path dir;
    private final Path path;

    private Fifo(Path dir, Path path) {
        this.dir = dir;
        this.path = path;
    }

    /** Makes a new FIFO. */
    public static Fifo create() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("course-fifo-");
        Path path = dir.resolve("pipe");
        try {
            Process p = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IOException("mkfifo failed: " + out);
        } catch (IOException | InterruptedException | RuntimeException e) {
            Files.deleteIfExists(path);
            Files.deleteIfExists(dir);
            throw e;
        }
        return new Fifo(dir, path);
    }

    /** The FIFO's path. */
    public Path path() { return path; }

    /** Deletes the FIFO and its folder. */
    @Override
    public void close() throws IOException {
        Files.deleteIfExists(path);
        Files.deleteIfExists(dir);
    }
}
