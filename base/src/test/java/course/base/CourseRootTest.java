package course.base;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CourseRootTest {
    private static Path course(Path dir) throws IOException {
        Files.createDirectories(dir.resolve("exercises"));
        Files.createDirectories(dir.resolve("notebooks/deep"));
        Files.writeString(dir.resolve("course"), "");
        return dir.toRealPath();
    }

    @Test
    void theCourseFolderIsFoundFromASubfolder(@TempDir Path dir) throws Exception {
        Path course = course(dir.resolve("c"));
        assertEquals(course, CourseRoot.search(course.resolve("notebooks/deep")).orElseThrow());
        assertEquals(Optional.empty(), CourseRoot.search(dir));
    }

    @Test
    void theWorkingDirectoryComesFirstThenThePropertyThenTheVariable(@TempDir Path dir) throws Exception {
        Path learners = course(dir.resolve("learners-copy"));
        Path property = course(dir.resolve("property"));
        Path variable = course(dir.resolve("image-copy"));
        Path outside = Files.createDirectories(dir.resolve("elsewhere"));
        String p = property.toString();
        String v = variable.toString();
        // A kernel in the learner's notebooks/ grades the learner's copy, whatever COURSE_HOME says.
        assertEquals(
                learners, CourseRoot.locate(learners.resolve("notebooks"), p, v).orElseThrow());
        assertEquals(property, CourseRoot.locate(outside, p, v).orElseThrow());
        assertEquals(variable, CourseRoot.locate(outside, null, v).orElseThrow());
        assertEquals(variable, CourseRoot.locate(outside, " ", v).orElseThrow());
        // A setting that names no course folder is passed over.
        assertEquals(variable, CourseRoot.locate(outside, outside.toString(), v).orElseThrow());
        assertTrue(CourseRoot.locate(outside, outside.toString(), null).isEmpty());
    }
}
