package course.base;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTreesTest {
    @Test
    void copiesATreeAndDeletesIt(@TempDir Path dir) throws Exception {
        Path from = dir.resolve("from");
        Files.createDirectories(from.resolve("a/b"));
        Files.createDirectories(from.resolve("empty"));
        Files.writeString(from.resolve("a/b/one.txt"), "one");
        Files.writeString(from.resolve("top.txt"), "top");
        Path to = dir.resolve("to/nested");
        Files.createDirectories(to);
        Files.writeString(to.resolve("top.txt"), "old");

        FileTrees.copy(from, to);
        assertEquals("one", Files.readString(to.resolve("a/b/one.txt")));
        assertEquals("top", Files.readString(to.resolve("top.txt")), "replaced");
        assertTrue(Files.isDirectory(to.resolve("empty")));

        FileTrees.delete(dir.resolve("to"));
        assertFalse(Files.exists(dir.resolve("to")));
        assertTrue(Files.exists(from.resolve("a/b/one.txt")), "the source stays");
        FileTrees.delete(dir.resolve("to")); // gone already: nothing to do
    }

    @Test
    void deletingALinkDeletesTheLinkNotWhatItPointsTo(@TempDir Path dir) throws Exception {
        Path kept = Files.createDirectories(dir.resolve("kept"));
        Files.writeString(kept.resolve("file.txt"), "x");
        Path tree = Files.createDirectories(dir.resolve("tree"));
        Files.createSymbolicLink(tree.resolve("link"), kept);
        assertTrue(FileTrees.deleteQuietly(tree));
        assertFalse(Files.exists(tree));
        assertTrue(Files.exists(kept.resolve("file.txt")));
    }
}
