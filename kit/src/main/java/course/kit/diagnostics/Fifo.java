package course.kit.diagnostics;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A named pipe (a FIFO, made with {@code mkfifo}) in a fresh temporary folder. Reading or writing it is file
 * I/O: a virtual thread blocked on it keeps its carrier.
 *
 * <p>The FIFO keeps one end of its own open for reading and writing, so that opening it never blocks;
 * {@link #write(int)} feeds readers through it and {@link #drain(long)} empties what writers wrote.
 * {@link #close()} deletes the FIFO (no one can open it any more) and closes that end: readers blocked in a
 * read then see the end of the file, and nothing is left behind.
 *
 * <pre>{@code
 * try (var fifo = Fifo.create()) {
 *     Thread.ofVirtual().start(() -> new FileInputStream(fifo.file()).read());   // blocks, mounted
 *     fifo.write(1);
 * }
 * }</pre>
 */
public final class Fifo implements AutoCloseable {
    private final Path dir;
    private final Path path;
    private final RandomAccessFile end;

    private Fifo(Path dir, Path path) throws IOException {
        this.dir = dir;
        this.path = path;
        this.end = new RandomAccessFile(path.toFile(), "rw"); // read+write: never blocks on a FIFO
    }

    /** Makes a new FIFO. */
    public static Fifo create() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("course-fifo-");
        Path path = dir.resolve("pipe");
        try {
            Process p = new ProcessBuilder("mkfifo", path.toString())
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) throw new IOException("mkfifo failed: " + out);
            return new Fifo(dir, path);
        } catch (IOException | InterruptedException | RuntimeException e) {
            Files.deleteIfExists(path);
            Files.deleteIfExists(dir);
            throw e;
        }
    }

    /** The FIFO's path. */
    public Path path() {
        return path;
    }

    /** The FIFO as a {@link java.io.File}, for {@code new FileInputStream(…)} or {@code new RandomAccessFile(…)}. */
    public java.io.File file() {
        return path.toFile();
    }

    /** Writes {@code bytes} bytes into the FIFO, for readers. */
    public void write(int bytes) throws IOException {
        end.write(new byte[bytes]);
    }

    /** Reads and discards {@code bytes} bytes that writers wrote (it blocks until they are there). */
    public void drain(long bytes) throws IOException {
        byte[] buf = new byte[64 * 1024];
        try (var in = new FileInputStream(path.toFile())) { // opens at once: this FIFO's own end is a writer
            long left = bytes;
            while (left > 0) {
                int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                if (n < 0) throw new IOException("the FIFO ended with " + left + " bytes still expected");
                left -= n;
            }
        }
    }

    /** Deletes the FIFO and its folder and closes its own end: blocked readers see the end of the file. */
    @Override
    public void close() throws IOException {
        try {
            Files.deleteIfExists(path);
            Files.deleteIfExists(dir);
        } finally {
            end.close();
        }
    }
}
