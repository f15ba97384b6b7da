package course.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class HistoryTest {

    private static History sample() {
        History h = new History();
        h.add(1, "int x = 6;", null);
        h.add(2, "x * 7", "42");
        h.add(3, "System.out.println(x);", null);
        h.add(4, "x * 7", "42");
        return h;
    }

    private static List<Integer> lines(List<History.Entry> entries) {
        return entries.stream().map(History.Entry::line).toList();
    }

    @Test
    @DisplayName("tail: the last n cells, oldest first; all of them for n = 0")
    void tail() {
        History h = sample();
        assertEquals(List.of(3, 4), lines(h.tail(2)));
        assertEquals(List.of(1, 2, 3, 4), lines(h.tail(0)));
        assertEquals(List.of(1, 2, 3, 4), lines(h.tail(99)));
    }

    @Test
    @DisplayName("range: counts in [start, stop) of this session (1, or 0 for 'current'); none of another")
    void range() {
        History h = sample();
        assertEquals(List.of(2, 3), lines(h.range(History.SESSION, 2, 4)));
        assertEquals(List.of(2, 3, 4), lines(h.range(0, 2, 0)));
        assertEquals(List.of(), lines(h.range(-1, 1, 10)));
    }

    @Test
    @DisplayName("search: a glob over the whole input; the last n; each input once with unique")
    void search() {
        History h = sample();
        assertEquals(List.of(2, 4), lines(h.search("x ? 7", 0, false)));
        assertEquals(List.of(4), lines(h.search("x*", 1, false)));
        assertEquals(List.of(1, 3, 4), lines(h.search("*", 0, true)));
        assertEquals(List.of(1, 2, 3, 4), lines(h.search(null, 0, false)));
        assertEquals(List.of(), lines(h.search("x", 0, false)));
    }

    @Test
    void globs() {
        assertTrue(History.globPattern("6 [*] 7").matcher("6 * 7").matches());
        assertFalse(History.globPattern("6 [*] 7").matcher("6 + 7").matches());
        assertTrue(History.globPattern("[!a]b").matcher("cb").matches());
        assertTrue(History.globPattern("a.b(c)").matcher("a.b(c)").matches());
        assertFalse(History.globPattern("a.b").matcher("axb").matches());
        assertTrue(History.globPattern("*\n*").matcher("one\ntwo").matches());
    }

    @Test
    @DisplayName("the reply's entries: [session, line, input], or [session, line, [input, output]]")
    void replyEntries() {
        History h = sample();
        assertEquals(List.of(Arrays.asList(History.SESSION, 4, "x * 7")), h.answerEntries(h.tail(1), false));
        assertEquals(
                List.of(Arrays.asList(History.SESSION, 3, Arrays.asList("System.out.println(x);", null))),
                h.answerEntries(h.tail(2).subList(0, 1), true));
    }
}
