package course.base;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Folder trees: copy one, delete one. (On the JDK alone: none of the grader's libraries has these, and the
 * grader's class path stays small.) Symbolic links are neither followed nor copied through: a link is deleted
 * as a link, and copied as the file it is.
 */
public final class FileTrees {
    private FileTrees() {}

    /**
     * Copies the tree at {@code from} into {@code to} (created as needed), replacing files that exist there.
     *
     * @param from a folder, or a single file
     * @param to   where its contents go
     * @throws IOException if a file cannot be read or written
     */
    public static void copy(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Path target = to.resolve(from.relativize(file).toString());
                Files.createDirectories(target.toAbsolutePath().getParent());
                Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /**
     * Deletes {@code path} and everything under it; nothing happens when it does not exist.
     *
     * @throws IOException if something cannot be deleted
     */
    public static void delete(Path path) throws IOException {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(path, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE; // gone meanwhile
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    throw e;
                }
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /**
     * Deletes {@code path} and everything under it as far as it can, for temporary folders: a file that another
     * process is still writing is tried once more, and what is left after that stays.
     *
     * @return whether the whole tree is gone
     */
    public static boolean deleteQuietly(Path path) {
        if (path == null) {
            return true;
        }
        for (int pass = 0; pass < 2; pass++) { // a second pass for files made while the first walked
            try {
                delete(path);
                return true;
            } catch (IOException | RuntimeException e) {
                // try once more below, then leave it
            }
        }
        return !Files.exists(path, LinkOption.NOFOLLOW_LINKS);
    }
}
