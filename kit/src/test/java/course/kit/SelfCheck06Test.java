package course.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import course.kit.SelfCheck.Choice;
import course.kit.SelfCheck.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Notebook 06's self-check (selfcheck/06.json): it loads, and tells right, wrong and missing answers apart. */
class SelfCheck06Test {
    private static void right(String id, Object answer) {
        Result r = SelfCheck.check(id, answer);
        assertTrue(r.answered() && r.correct(), id + " " + answer + ": " + r);
    }

    /** Wrong, with the hint that names the section to reread, and without the expected answer. */
    private static void wrong(String id, Object answer, String section, String... notShown) {
        Result r = SelfCheck.check(id, answer);
        assertTrue(r.answered() && !r.correct(), id + " " + answer + ": " + r);
        assertTrue(r.line().startsWith("not yet: reread "), r.line());
        assertTrue(r.line().contains(section), r.line());
        for (String s : notShown) assertFalse(r.toString().contains(s), "the answer is shown: " + r);
    }

    @Test
    void theFileLoads() {
        assertEquals(List.of("06.1", "06.2", "06.3", "06.4"), SelfCheck.questions("06"));
    }

    @Test
    void theRightAnswersAreToldRight() {
        right("06.1", false);
        right("06.2", Choice.C);
        right("06.3", 4); // one per carrier
        right("06.3", 4L);
        right("06.4", Duration.ofMillis(1_250)); // ⌈200/8⌉ waves of 50 ms
        right("06.4", Duration.ofMillis(1_300)); // within 5 %
    }

    @Test
    void theLikelyWrongAnswersAreToldWrongWithTheSectionToReread() {
        String one = "§ 1 · `synchronized` around a blocking call";
        wrong("06.1", true, one); // the JDK 21 rule
        String two = "§ 2 · What still pins";
        for (Choice c : List.of(Choice.A, Choice.B, Choice.D, Choice.E)) wrong("06.2", c, two);
        wrong("06.3", 1, two); // only the initialiser
        wrong("06.3", 1_000, two); // every reader
        wrong("06.3", 3, two);
        String three = "§ 3 · File I/O holds the carrier";
        wrong("06.4", Duration.ofMillis(50), three, "1.25", "1,250"); // a socket's answer: every read at once
        wrong("06.4", Duration.ofSeconds(10), three); // N · t, one read at a time
        wrong("06.4", Duration.ofMillis(1_350), three); // 8 % off: outside the tolerance
    }

    @Test
    void aPlaceholderIsToldMissing() {
        assertEquals("not answered yet", SelfCheck.check("06.1", null).line());
        assertEquals("not answered yet", SelfCheck.check("06.2", Choice.NONE).line());
        assertEquals("not answered yet", SelfCheck.check("06.3", 0).line());
        assertEquals("not answered yet", SelfCheck.check("06.4", Duration.ZERO).line());
    }

    @Test
    void everyHintNamesAHeadingOfTheNotebook() throws IOException {
        assertHintsNameHeadings("06", Path.of("..", "notebooks", "06-pinning-and-diagnostics.ipynb"));
    }

    /** Each question's hint contains "§ " and the text of one of the notebook's "## " headings, exactly. */
    private static void assertHintsNameHeadings(String notebook, Path ipynb) throws IOException {
        assumeTrue(Files.isRegularFile(ipynb), "the notebook is not next to the kit: " + ipynb.toAbsolutePath());
        var headings = new ArrayList<String>();
        for (JsonNode cell : new ObjectMapper().readTree(ipynb.toFile()).path("cells")) {
            if (!cell.path("cell_type").asText().equals("markdown")) continue;
            var source = new StringBuilder();
            JsonNode s = cell.path("source");
            if (s.isArray()) s.forEach(line -> source.append(line.asText()));
            else source.append(s.asText());
            for (String line : source.toString().split("\n")) {
                if (line.startsWith("## ")) headings.add(line.substring(3).strip());
            }
        }
        JsonNode file = new ObjectMapper()
                .readTree(SelfCheck.class.getClassLoader().getResource(SelfCheck.RESOURCES + notebook + ".json"));
        for (JsonNode q : file.path("questions")) {
            String hint = q.path("hint").asText();
            assertTrue(
                    headings.stream().anyMatch(h -> hint.contains("§ " + h)),
                    q.path("id").asText() + "'s hint names no heading of " + ipynb.getFileName() + ": " + hint
                            + "\nheadings: " + headings);
        }
    }
}
