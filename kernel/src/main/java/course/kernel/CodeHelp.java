package course.kernel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import jdk.jshell.Snippet;
import jdk.jshell.SourceCodeAnalysis;
import jdk.jshell.SourceCodeAnalysis.Completeness;
import jdk.jshell.SourceCodeAnalysis.Documentation;
import org.rapaio.jupyter.kernel.core.CompleteMatches;
import org.rapaio.jupyter.kernel.display.DisplayData;
import org.rapaio.jupyter.kernel.message.messages.ShellIsCompleteReply;

/**
 * What the kernel answers about code that has not run: Shift+Tab ({@code inspect_request}), Tab
 * ({@code complete_request}) and whether a cell is finished ({@code is_complete_request}), from JShell's
 * {@link SourceCodeAnalysis}. Cursor positions here are Java string indices (UTF-16); {@link KernelServer}
 * converts the protocol's code points.
 *
 * <p><b>Where rapaio 3.0.1 missed.</b> JShell's {@code documentation(code, cursor, …)} finds a class only with the
 * cursor at the end of its name, and a method or constructor only with the cursor inside the parentheses of a call
 * ({@code Thread.ofVirtual(|)}); {@code Executors.newFixedThreadPool} without parentheses, and
 * {@code Thread.ofVirtual()} with the cursor after them, find nothing. rapaio read the cursor as the index of a
 * character rather than a position between two, so the cursor at the end of {@code Semaphore}, where it is after
 * typing, found nothing either. It also gave JShell the whole cell, and JShell reads the code before the cursor as
 * one snippet: after an {@code import} line in the same cell, help and completion found nothing.
 */
final class CodeHelp {

    private CodeHelp() {}

    // ------------------------------------------------------------------------------------------------ snippets

    /**
     * Where JShell should start reading {@code prefix} (the cell's code before the cursor), most specific first:
     * the start of the snippet the cursor is in, then the start of the statements before it (after the last
     * import or method declaration, which cannot be read as part of one method body). A later snippet that uses a
     * variable declared earlier in the same cell needs the second. The list is lazy: the second start, which asks
     * JShell what kind each earlier snippet is, is worked out only when the first one found nothing.
     */
    static List<Integer> contexts(SourceCodeAnalysis sca, String prefix) {
        List<Integer> starts = new ArrayList<>();
        int start = 0;
        String rest = prefix;
        while (true) {
            SourceCodeAnalysis.CompletionInfo info = sca.analyzeCompletion(rest);
            if (!info.completeness().isComplete() || info.remaining().length() >= rest.length()) {
                break;
            }
            int end = prefix.length() - info.remaining().length();
            if (info.remaining().isBlank()) {
                break; // the cursor is in (or right after) this snippet
            }
            starts.add(start);
            start = end;
            rest = info.remaining();
        }
        int last = start;
        if (starts.isEmpty()) return List.of(last);
        return new java.util.AbstractList<>() {
            private Integer statements;

            @Override
            public Integer get(int index) {
                if (index == 0) return last;
                if (statements == null) {
                    statements = 0;
                    for (int s : starts) {
                        int next = nextStart(starts, s, last);
                        if (!canBeInMethodBody(sca, prefix.substring(s, next))) statements = next;
                    }
                }
                return statements;
            }

            @Override
            public int size() {
                return 2; // the second may equal the first: JShell is then asked the same twice, and finds nothing
            }
        };
    }

    private static int nextStart(List<Integer> starts, int s, int last) {
        int i = starts.indexOf(s);
        return i + 1 < starts.size() ? starts.get(i + 1) : last;
    }

    private static boolean canBeInMethodBody(SourceCodeAnalysis sca, String source) {
        if (source.isBlank()) return true;
        try {
            for (Snippet snippet : sca.sourceToSnippets(source)) {
                if (snippet.kind() == Snippet.Kind.IMPORT || snippet.kind() == Snippet.Kind.METHOD) return false;
            }
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    // ------------------------------------------------------------------------------------------------ complete

    /**
     * Tab: JShell's suggestions for the code before {@code cursor}, those that match the expected type first, then
     * in alphabetical order; they replace the part of the name already typed ({@code start} to {@code cursor}).
     * Null when there is none.
     */
    static CompleteMatches complete(SourceCodeAnalysis sca, String code, int cursor) {
        String prefix = code.substring(0, cursor);
        List<Integer> contexts = contexts(sca, prefix);
        for (int i = 0; i < contexts.size(); i++) {
            int start = contexts.get(i);
            if (i > 0 && start == contexts.get(0)) break;
            String snippet = prefix.substring(start);
            int[] anchor = new int[1];
            List<SourceCodeAnalysis.Suggestion> suggestions;
            try {
                suggestions = sca.completionSuggestions(snippet, snippet.length(), anchor);
            } catch (RuntimeException e) {
                continue;
            }
            if (suggestions == null || suggestions.isEmpty()) continue;
            List<String> matches = suggestions.stream()
                    .sorted(Comparator.comparing((SourceCodeAnalysis.Suggestion s) -> s.matchesType() ? 0 : 1)
                            .thenComparing(s -> s.continuation().toLowerCase(Locale.ROOT))
                            .thenComparing(SourceCodeAnalysis.Suggestion::continuation))
                    .map(SourceCodeAnalysis.Suggestion::continuation)
                    .distinct()
                    .toList();
            return new CompleteMatches(matches, start + anchor[0], cursor);
        }
        return null;
    }

    // ------------------------------------------------------------------------------------------------ is_complete

    /**
     * Whether the cell can run as it is: {@code incomplete} while a block, a call or a text block is open (with the
     * indentation of the next line), {@code invalid} when JShell cannot read a snippet at all (a stray brace, an
     * unclosed string on one line: the console runs it then, so the learner sees the error), else
     * {@code complete}.
     */
    static ShellIsCompleteReply isComplete(SourceCodeAnalysis sca, String code) {
        if (code.stripLeading().startsWith("%")) {
            return ShellIsCompleteReply.complete(); // a magic: rapaio's magics run as they are
        }
        boolean invalid = false;
        String rest = code;
        SourceCodeAnalysis.CompletionInfo info = sca.analyzeCompletion(rest);
        while (info.completeness().isComplete()) {
            if (info.completeness() == Completeness.UNKNOWN) invalid = true;
            if (info.remaining().length() >= rest.length()) break;
            rest = info.remaining();
            info = sca.analyzeCompletion(rest);
        }
        return switch (info.completeness()) {
            case DEFINITELY_INCOMPLETE, CONSIDERED_INCOMPLETE -> ShellIsCompleteReply.incomplete(nextIndent(code));
            default -> invalid ? ShellIsCompleteReply.invalid() : ShellIsCompleteReply.complete();
        };
    }

    /** The next line's indentation: the last line's, four spaces more after an opening brace or parenthesis. */
    static String nextIndent(String code) {
        String[] lines = code.split("\n", -1);
        for (int i = lines.length - 1; i >= 0; i--) {
            String line = lines[i];
            if (line.isBlank()) continue;
            String indent =
                    line.substring(0, line.length() - line.stripLeading().length());
            String t = line.strip();
            boolean opens = t.endsWith("{") || t.endsWith("(") || t.endsWith("[") || t.endsWith("->");
            return opens ? indent + "    " : indent;
        }
        return "";
    }

    // ------------------------------------------------------------------------------------------------ inspect

    /**
     * Shift+Tab: the documentation of the class, method or constructor at {@code cursor} (in a name, or just
     * after it, or just after the parentheses of a call), or null. JShell is asked, in this order, at:
     * <ol>
     *   <li>the inside of the call's parentheses when the name is followed by {@code (}: the method or
     *   constructor, with its overloads;</li>
     *   <li>the end of the name: a class, a field, a variable;</li>
     *   <li>the name followed by {@code (}: a method named without its parentheses
     *   ({@code Executors.newFixedThreadPool});</li>
     *   <li>the cursor itself (inside a call's arguments: that call);</li>
     *   <li>inside the parentheses that end just before the cursor ({@code Thread.ofVirtual()|}).</li>
     * </ol>
     */
    static List<Documentation> lookup(SourceCodeAnalysis sca, String code, int cursor) {
        // With the Javadoc from the start: a miss costs the same (no element, no source read), a hit one analysis.
        for (String prefix : candidates(code, cursor)) {
            List<Documentation> docs = documentation(sca, prefix, true);
            if (!docs.isEmpty()) return docs;
        }
        return List.of();
    }

    /** The code before each position JShell should be asked at (see {@link #lookup}), in that order. */
    static List<String> candidates(String code, int cursor) {
        LinkedHashSet<String> prefixes = new LinkedHashSet<>();
        int s = cursor;
        while (s > 0 && Character.isJavaIdentifierPart(code.charAt(s - 1))) s--;
        int e = cursor;
        while (e < code.length() && Character.isJavaIdentifierPart(code.charAt(e))) e++;
        if (s < e && Character.isJavaIdentifierStart(code.charAt(s))) {
            int p = e;
            while (p < code.length() && Character.isWhitespace(code.charAt(p))) p++;
            if (p < code.length() && code.charAt(p) == '(') prefixes.add(code.substring(0, p + 1));
            prefixes.add(code.substring(0, e));
            prefixes.add(code.substring(0, e) + "(");
        }
        prefixes.add(code.substring(0, cursor));
        int b = cursor;
        while (b > 0 && Character.isWhitespace(code.charAt(b - 1))) b--;
        if (b > 0 && code.charAt(b - 1) == ')') {
            int open = openingParenthesis(code, b - 1);
            if (open >= 0) prefixes.add(code.substring(0, open + 1));
        }
        return List.copyOf(prefixes);
    }

    /** The index of the {@code (} that the {@code )} at {@code close} closes, or -1. Ignores parentheses in strings. */
    static int openingParenthesis(String code, int close) {
        int depth = 0;
        boolean inString = false;
        for (int i = close; i >= 0; i--) {
            char c = code.charAt(i);
            if (c == '"' && (i == 0 || code.charAt(i - 1) != '\\')) inString = !inString;
            if (inString) continue;
            if (c == ')') depth++;
            else if (c == '(' && --depth == 0) return i;
        }
        return -1;
    }

    private static List<Documentation> documentation(SourceCodeAnalysis sca, String prefix, boolean javadoc) {
        List<Integer> contexts = contexts(sca, prefix);
        for (int i = 0; i < contexts.size(); i++) {
            int start = contexts.get(i);
            if (i > 0 && start == contexts.get(0)) break;
            String snippet = prefix.substring(start);
            if (snippet.isBlank()) continue;
            try {
                List<Documentation> docs = sca.documentation(snippet, snippet.length(), javadoc);
                if (docs != null && !docs.isEmpty()) return docs;
            } catch (RuntimeException ignored) {
                // JShell's analysis of half-written code can fail: try the next way of reading it
            }
        }
        return List.of();
    }

    /** Whether this JDK has its sources ({@code lib/src.zip}), which JShell reads the JDK's Javadoc from. */
    static boolean jdkSourcesPresent() {
        Path home = Path.of(System.getProperty("java.home"));
        return Files.isReadable(home.resolve("lib").resolve("src.zip"))
                || (home.getParent() != null
                        && Files.isReadable(home.getParent().resolve("src.zip")));
    }

    static final String NO_SOURCES = "No Javadoc: it is read from the JDK's sources (lib/src.zip), which this JDK ("
            + System.getProperty("java.home") + ") does not include. Install a JDK that has them, or the JDK's source"
            + " package (Debian/Ubuntu: openjdk-25-source).";

    /** The reply's data: each signature (bold) and its Javadoc, as HTML and as plain text. */
    static DisplayData render(List<Documentation> docs, boolean jdkSources) {
        StringBuilder html = new StringBuilder();
        StringBuilder text = new StringBuilder();
        for (Documentation doc : docs) {
            if (!text.isEmpty()) {
                text.append("\n\n");
                html.append("<hr/>");
            }
            html.append("<p><code><b>").append(Javadoc.escape(doc.signature())).append("</b></code></p>");
            text.append("\u001B[1m").append(doc.signature()).append("\u001B[0m");
            if (doc.javadoc() != null && !doc.javadoc().isBlank()) {
                Javadoc.Parsed parsed = Javadoc.parse(doc.javadoc());
                html.append(Javadoc.html(parsed));
                String t = Javadoc.text(parsed);
                if (!t.isEmpty()) text.append("\n\n").append(t);
            } else if (!jdkSources) {
                html.append("<p><i>").append(Javadoc.escape(NO_SOURCES)).append("</i></p>");
                text.append("\n\n").append(Javadoc.wrap(NO_SOURCES, ""));
            }
        }
        DisplayData dd = DisplayData.fromHtml(html.toString());
        dd.putText(text.toString());
        return dd;
    }

    // ------------------------------------------------------------------------------------------------ positions

    /** The UTF-16 index of the protocol's cursor position {@code codePoints} (clamped to the code). */
    static int utf16(String code, int codePoints) {
        int n = Math.max(0, Math.min(codePoints, code.codePointCount(0, code.length())));
        return code.offsetByCodePoints(0, n);
    }

    /** The protocol's position (code points) of the UTF-16 index {@code index}. */
    static int codePoints(String code, int index) {
        return code.codePointCount(0, Math.max(0, Math.min(index, code.length())));
    }
}
