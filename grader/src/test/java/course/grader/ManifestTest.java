package course.grader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The manifest the grader checks the course's tests against lists exactly the course's test and stub files,
 * with their SHA-256: a course author who changes one of them must update it (the command is in the message).
 */
class ManifestTest {

    @Test
    void theManifestMatchesTheCoursesTestsAndStubs() throws Exception {
        Path root = Courses.root();
        assertEquals(Pristine.onDisk(root), Pristine.manifest(), """
                the course's tests or stubs changed: update the grader's manifest with ./course manifest
                """);
        assertEquals(
                Pristine.manifestText(root),
                Files.readString(root.resolve(Pristine.MANIFEST_SOURCE)).replace("\r\n", "\n"),
                "./course manifest writes the manifest as it is committed, in sha256sum's format");
    }

    @Test
    void aWindowsCheckoutWithCrlfLineEndsMatchesTheManifest() {
        byte[] lf = "class A {\n}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] crlf = "class A {\r\n}\r\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(Pristine.sha256(lf), Pristine.sha256(crlf));
        // sha256sum of the LF file, as the manifest is made
        assertEquals("665de682b44513bbe5d067484557236e3dcc2f84e31df3aa074238c5690f5513", Pristine.sha256(crlf));
        assertTrue(
                !Pristine.sha256(lf)
                        .equals(Pristine.sha256("class B {\n}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8))),
                "another file, another hash");
    }

    @Test
    void everyExerciseFolderWithTestsIsGraded() throws Exception {
        List<String> folders;
        try (Stream<Path> s = Files.list(Courses.root().resolve("exercises"))) {
            folders = s.filter(p -> Files.isDirectory(p.resolve("src/test/java")))
                    .map(p -> p.getFileName().toString())
                    .sorted()
                    .toList();
        }
        assertEquals(folders, Grader.exercises(), "the exercises the grader knows");
        assertTrue(folders.size() >= 5, "exercises: " + folders);
    }
}
