package course.kernel;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.rapaio.jupyter.kernel.message.messages.ShellHistoryRequest;

/**
 * The cells this kernel has run, for {@code history_request} (JupyterLab's console and {@code jupyter console} ask
 * for the {@code tail} to fill their up-arrow history). It is the history of this kernel's session only, kept in
 * memory: a restarted kernel starts an empty one, as the session number {@link #SESSION} says.
 *
 * <p>The three kinds of request behave as IPython's: {@code tail} gives the last {@code n} cells, {@code range}
 * the cells whose execution count is in {@code [start, stop)}, {@code search} the cells whose whole input matches
 * a glob ({@code *}, {@code ?}, {@code [abc]}), the last {@code n} of them, each input once with {@code unique}.
 * With {@code output} each entry carries the cell's result as plain text (or null).
 */
final class History {

    /** The session number every entry carries. 0 in a {@code range} request also means this session. */
    static final int SESSION = 1;
    /** The most cells kept; older ones are dropped. */
    static final int LIMIT = 10_000;

    record Entry(int line, String input, String output) {}

    private final Deque<Entry> entries = new ArrayDeque<>();

    /** Records a cell: its execution count, its code and its result as plain text (null if it had none). */
    synchronized void add(int line, String input, String output) {
        entries.addLast(new Entry(line, input, output));
        while (entries.size() > LIMIT) {
            entries.removeFirst();
        }
    }

    /** The {@code history} list of a reply to {@code request}. */
    List<List<Object>> answer(ShellHistoryRequest request) {
        List<Entry> picked = switch (request) {
            case ShellHistoryRequest.Tail t -> tail(t.getMaxReturnLength());
            case ShellHistoryRequest.Range r -> range(r.getSessionIndex(), r.getStart(), r.getStop());
            case ShellHistoryRequest.Search s -> search(s.getPattern(), s.getMaxReturnLength(), s.filterUnique());
            default -> List.of();
        };
        return answerEntries(picked, request.includeOutput());
    }

    /** Entries as the reply lists them: {@code [session, line, input]} or {@code [session, line, [input, output]]}. */
    List<List<Object>> answerEntries(List<Entry> picked, boolean output) {
        List<List<Object>> out = new ArrayList<>(picked.size());
        for (Entry e : picked) {
            List<Object> io = new ArrayList<>(2);
            io.add(e.input());
            io.add(e.output()); // may be null: a list keeps it
            out.add(List.of(SESSION, e.line(), output ? io : e.input()));
        }
        return out;
    }

    /** The last {@code n} cells, oldest first; every cell when {@code n} is 0 or absent. */
    synchronized List<Entry> tail(int n) {
        List<Entry> all = new ArrayList<>(entries);
        return n <= 0 || n >= all.size() ? all : all.subList(all.size() - n, all.size());
    }

    /**
     * The cells of {@code session} (this one: {@link #SESSION}, or 0) whose count is at least {@code start} and
     * below {@code stop} (no upper end when {@code stop} is 0 or absent). Earlier sessions are not kept.
     */
    synchronized List<Entry> range(int session, int start, int stop) {
        if (session != SESSION && session != 0) {
            return List.of();
        }
        return entries.stream()
                .filter(e -> e.line() >= start && (stop <= 0 || e.line() < stop))
                .toList();
    }

    /** The cells whose whole input matches {@code glob}, oldest first: the last {@code n} ({@code n <= 0}: all). */
    synchronized List<Entry> search(String glob, int n, boolean unique) {
        Pattern p = globPattern(glob == null || glob.isEmpty() ? "*" : glob);
        List<Entry> matches = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        // Newest first, so that "unique" keeps the latest run of each input.
        for (var it = entries.descendingIterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (p.matcher(e.input()).matches() && (!unique || seen.add(e.input()))) {
                matches.addFirst(e);
                if (n > 0 && matches.size() == n) {
                    break;
                }
            }
        }
        return matches;
    }

    /** A glob as SQLite's GLOB reads it (IPython searches its history that way): case-sensitive, whole input. */
    static Pattern globPattern(String glob) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            switch (c) {
                case '*' -> re.append("[\\s\\S]*");
                case '?' -> re.append("[\\s\\S]");
                case '[' -> {
                    int close = glob.indexOf(']', i + 2);
                    if (close < 0) {
                        re.append("\\[");
                    } else {
                        String set = glob.substring(i + 1, close);
                        boolean negate = set.startsWith("^") || set.startsWith("!");
                        if (negate) set = set.substring(1);
                        re.append(negate ? "[^" : "[")
                                .append(set.replace("\\", "\\\\")
                                        .replace("[", "\\[")
                                        .replace("&", "\\&"))
                                .append(']');
                        i = close;
                    }
                }
                default -> re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString());
    }
}
