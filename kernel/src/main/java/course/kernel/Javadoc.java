package course.kernel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Javadoc comment (as JShell's {@code SourceCodeAnalysis.documentation} gives it: the comment's text, inline
 * tags and HTML included) made readable: HTML for the help panel and the tooltip, plain text for text frontends.
 * Inline tags become code ({@code {@code x}}, {@code {@link A#b label}}), the block tags become sections
 * ("Parameters:", "Returns:", "Throws:", "Since:" ...), and the plain text has the HTML taken out, entities
 * decoded, paragraphs kept and wrapped at {@link #WIDTH} columns, {@code <pre>} blocks kept as they are.
 */
final class Javadoc {

    /** Where plain text is wrapped. */
    static final int WIDTH = 100;

    private Javadoc() {}

    /** A parsed comment: its main description and its block tags' sections, both as HTML. */
    record Parsed(String body, Map<String, List<String>> sections) {}

    private static final Map<String, String> SECTION_TITLES = new LinkedHashMap<>();

    static {
        SECTION_TITLES.put("param", "Parameters:");
        SECTION_TITLES.put("return", "Returns:");
        SECTION_TITLES.put("throws", "Throws:");
        SECTION_TITLES.put("apiNote", "API Note:");
        SECTION_TITLES.put("implSpec", "Implementation Requirements:");
        SECTION_TITLES.put("implNote", "Implementation Note:");
        SECTION_TITLES.put("deprecated", "Deprecated:");
        SECTION_TITLES.put("since", "Since:");
        SECTION_TITLES.put("see", "See also:");
    }

    // ------------------------------------------------------------------------------------------------ parse

    static Parsed parse(String javadoc) {
        String text = unindent(javadoc == null ? "" : javadoc);
        int split = firstBlockTag(text);
        String body = toHtml(text.substring(0, split));
        Map<String, List<String>> sections = new LinkedHashMap<>();
        SECTION_TITLES.values().forEach(t -> sections.put(t, new ArrayList<>()));
        for (String block : splitBlocks(text.substring(split))) {
            Matcher m = Pattern.compile("^@(\\w+)\\s*([\\s\\S]*)$").matcher(block.strip());
            if (!m.matches()) continue;
            String tag = m.group(1);
            String rest = m.group(2).strip();
            switch (tag) {
                case "param" -> {
                    String[] nameAndText = rest.split("\\s+", 2);
                    sections.get("Parameters:")
                            .add("<code>" + escape(nameAndText[0]) + "</code>"
                                    + (nameAndText.length > 1 ? " – " + toHtml(nameAndText[1]) : ""));
                }
                case "throws", "exception" -> {
                    String[] typeAndText = rest.split("\\s+", 2);
                    sections.get("Throws:")
                            .add("<code>" + escape(typeAndText[0]) + "</code>"
                                    + (typeAndText.length > 1 ? " – " + toHtml(typeAndText[1]) : ""));
                }
                case "see" ->
                    sections.get("See also:")
                            .add(
                                    rest.startsWith("<") || rest.startsWith("\"")
                                            ? toHtml(rest)
                                            : toHtml("{@link " + rest + "}"));
                default -> {
                    String title = SECTION_TITLES.get(tag);
                    if (title != null) sections.get(title).add(toHtml(rest));
                    // @author, @jls, @serial, @spec, @hidden ...: not for a learner's tooltip
                }
            }
        }
        sections.values().removeIf(List::isEmpty);
        return new Parsed(body.strip(), sections);
    }

    /** Takes away the one space that every line of a comment's text starts with (" * " less the star). */
    static String unindent(String s) {
        String[] lines = s.split("\n", -1);
        boolean allIndented = true;
        for (String l : lines) {
            if (!l.isBlank() && !l.startsWith(" ")) {
                allIndented = false;
                break;
            }
        }
        if (!allIndented) return s;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) sb.append('\n');
            sb.append(lines[i].isEmpty() ? "" : lines[i].substring(1));
        }
        return sb.toString();
    }

    /** Where the block tags start: the first line that starts with {@code @}, outside inline tags and {@code <pre>}. */
    private static int firstBlockTag(String s) {
        int depth = 0;
        boolean pre = false;
        boolean lineStart = true;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n') {
                lineStart = true;
                continue;
            }
            if (lineStart && !Character.isWhitespace(c)) {
                if (c == '@' && depth == 0 && !pre && i + 1 < s.length() && Character.isLetter(s.charAt(i + 1))) {
                    return lineStartOf(s, i);
                }
                lineStart = false;
            }
            if (c == '{') depth++;
            else if (c == '}' && depth > 0) depth--;
            else if (c == '<') {
                if (s.regionMatches(true, i, "<pre", 0, 4)) pre = true;
                else if (s.regionMatches(true, i, "</pre", 0, 5)) pre = false;
            }
        }
        return s.length();
    }

    private static int lineStartOf(String s, int i) {
        int nl = s.lastIndexOf('\n', i);
        return nl < 0 ? 0 : nl + 1;
    }

    private static List<String> splitBlocks(String s) {
        List<String> blocks = new ArrayList<>();
        String rest = s;
        while (!rest.isBlank()) {
            int next = firstBlockTag(rest.substring(1));
            int end = next >= rest.length() - 1 ? rest.length() : next + 1;
            blocks.add(rest.substring(0, end));
            rest = rest.substring(end);
        }
        return blocks;
    }

    // ------------------------------------------------------------------------------------------------ inline tags

    /** The comment's text as HTML: inline tags replaced, the rest (already HTML) kept. */
    static String toHtml(String text) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < text.length()) {
            int open = text.indexOf("{@", i);
            if (open < 0) {
                out.append(text, i, text.length());
                break;
            }
            out.append(text, i, open);
            int close = matchingBrace(text, open);
            if (close < 0) {
                out.append(text, open, text.length());
                break;
            }
            out.append(inlineTag(text.substring(open + 2, close)));
            i = close + 1;
        }
        return out.toString();
    }

    private static int matchingBrace(String s, int open) {
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '{') depth++;
            else if (c == '}' && --depth == 0) return i;
        }
        return -1;
    }

    private static String inlineTag(String tag) {
        Matcher m = Pattern.compile("^(\\w+)\\s?([\\s\\S]*)$").matcher(tag);
        if (!m.matches()) return escape(tag);
        String name = m.group(1);
        String content = m.group(2);
        return switch (name) {
            case "code" -> "<code>" + escape(content) + "</code>";
            case "literal" -> escape(content);
            case "link", "linkplain" -> {
                String[] refAndLabel = splitReference(content.strip());
                String shown = refAndLabel[1].isEmpty() ? prettyReference(refAndLabel[0]) : null;
                String label = shown != null ? escape(shown) : toHtml(refAndLabel[1]);
                yield name.equals("link") ? "<code>" + label + "</code>" : label;
            }
            case "value", "systemProperty" -> "<code>" + escape(prettyReference(content.strip())) + "</code>";
            case "snippet" -> {
                int colon = content.indexOf(':');
                String body = colon < 0 ? "" : content.substring(colon + 1);
                yield body.isBlank() ? "" : "<pre>" + escape(stripIndent(body)) + "</pre>";
            }
            case "summary" -> toHtml(content);
            case "return" -> "Returns " + toHtml(content) + ".";
            case "index" ->
                escape(
                        content.strip().startsWith("\"")
                                ? content.strip().replaceAll("^\"([^\"]*)\"[\\s\\S]*$", "$1")
                                : content.strip().split("\\s+", 2)[0]);
            case "docRoot", "inheritDoc" -> "";
            default -> escape(content);
        };
    }

    /** {@code ref label}: the reference ends at the first space outside parentheses. */
    private static String[] splitReference(String s) {
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') depth++;
            else if (c == ')') depth--;
            else if (Character.isWhitespace(c) && depth == 0) {
                return new String[] {s.substring(0, i), s.substring(i).strip()};
            }
        }
        return new String[] {s, ""};
    }

    /** {@code #acquire} → {@code acquire}, {@code Thread#ofVirtual()} → {@code Thread.ofVirtual()}. */
    static String prettyReference(String ref) {
        String r = ref.startsWith("#") ? ref.substring(1) : ref;
        return r.replace('#', '.');
    }

    /** Code without its leading blank lines and trailing blanks, and without the indentation all its lines share. */
    private static String stripIndent(String code) {
        String s = code.stripTrailing();
        int firstLine = 0;
        for (int nl = s.indexOf('\n');
                nl >= 0 && s.substring(firstLine, nl).isBlank();
                nl = s.indexOf('\n', firstLine)) {
            firstLine = nl + 1;
        }
        return s.substring(firstLine).stripIndent();
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    // ------------------------------------------------------------------------------------------------ output

    /** The comment as HTML: the description, then the sections as a definition list. */
    static String html(Parsed p) {
        StringBuilder sb = new StringBuilder();
        if (!p.body().isEmpty()) sb.append("<div>").append(p.body()).append("</div>");
        if (!p.sections().isEmpty()) {
            sb.append("<dl>");
            p.sections().forEach((title, items) -> {
                sb.append("<dt><b>").append(escape(title)).append("</b></dt>");
                items.forEach(item -> sb.append("<dd>").append(item).append("</dd>"));
            });
            sb.append("</dl>");
        }
        return sb.toString();
    }

    /** The comment as plain text: the description, then each section's title and its indented items. */
    static String text(Parsed p) {
        StringBuilder sb = new StringBuilder();
        if (!p.body().isEmpty()) sb.append(htmlToText(p.body()));
        p.sections().forEach((title, items) -> {
            if (!sb.isEmpty()) sb.append("\n\n");
            if (items.size() == 1 && (title.equals("Since:") || title.equals("Returns:"))) {
                sb.append(wrap(title + " " + htmlToText(items.getFirst()).replace('\n', ' '), ""));
                return;
            }
            sb.append(title);
            for (String item : items) {
                sb.append('\n').append(indent(htmlToText(item), "  "));
            }
        });
        return sb.toString();
    }

    private static String indent(String s, String by) {
        return by + s.replace("\n", "\n" + by);
    }

    private static final Pattern TAG = Pattern.compile("<(/?)([a-zA-Z][a-zA-Z0-9]*)\\b[^>]*>");
    private static final char PRE = '\u0001'; // marks a line of a <pre> block: never wrapped
    private static final char BREAK = '\u0002'; // a paragraph break
    private static final char NEWLINE = '\u0003'; // a line break

    /** HTML as plain text: tags out, entities decoded, paragraphs kept, {@code <pre>} kept, wrapped at {@link #WIDTH}. */
    static String htmlToText(String html) {
        StringBuilder out = new StringBuilder();
        Matcher m = TAG.matcher(html);
        int i = 0;
        while (m.find(i)) {
            out.append(decode(html.substring(i, m.start())).replaceAll("\\s+", " "));
            String name = m.group(2).toLowerCase(java.util.Locale.ROOT);
            boolean closing = !m.group(1).isEmpty();
            i = m.end();
            switch (name) {
                case "pre" -> {
                    if (closing) break;
                    int end = html.toLowerCase(java.util.Locale.ROOT).indexOf("</pre", i);
                    String code = html.substring(i, end < 0 ? html.length() : end);
                    // "<pre> {@code" leaves a space before the code's first line: it is not the code's indentation
                    code = stripIndent(decode(TAG.matcher(code).replaceAll("")).replaceFirst("^[ \t]+", ""));
                    out.append(BREAK);
                    for (String line : code.split("\n", -1)) {
                        out.append(PRE).append("    ").append(line).append(NEWLINE);
                    }
                    out.append(BREAK);
                    if (end < 0) {
                        i = html.length();
                    } else {
                        int gt = html.indexOf('>', end);
                        i = gt < 0 ? html.length() : gt + 1;
                    }
                }
                case "p", "div", "blockquote", "table", "ul", "ol", "dl", "h1", "h2", "h3", "h4", "h5", "h6", "hr" ->
                    out.append(BREAK);
                case "br", "tr", "dt" -> out.append(NEWLINE);
                case "li" -> {
                    if (!closing) out.append(NEWLINE).append("• ");
                }
                case "dd" -> {
                    if (!closing) out.append(NEWLINE).append("  ");
                }
                case "td", "th" -> out.append(' ');
                default -> {}
            }
        }
        out.append(decode(html.substring(i)).replaceAll("\\s+", " "));
        return layout(out.toString());
    }

    /** Turns the marks into lines and paragraphs, and wraps every line that is not code. */
    private static String layout(String marked) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        boolean pendingBreak = false;
        for (int i = 0; i < marked.length(); i++) {
            char c = marked.charAt(i);
            if (c == BREAK || c == NEWLINE) {
                if (!line.toString().isBlank() || line.indexOf(String.valueOf(PRE)) == 0) {
                    if (pendingBreak && !lines.isEmpty()) lines.add("");
                    lines.add(line.toString());
                    pendingBreak = false;
                }
                line.setLength(0);
                if (c == BREAK) pendingBreak = true;
            } else {
                line.append(c);
            }
        }
        if (!line.toString().isBlank()) {
            if (pendingBreak && !lines.isEmpty()) lines.add("");
            lines.add(line.toString());
        }
        StringBuilder sb = new StringBuilder();
        for (String l : lines) {
            if (!sb.isEmpty()) sb.append('\n');
            if (!l.isEmpty() && l.charAt(0) == PRE) {
                sb.append(l.substring(1).stripTrailing());
            } else {
                String t = l.strip();
                String hanging = t.startsWith("• ") ? "  " : "";
                sb.append(wrap(t, hanging));
            }
        }
        return sb.toString();
    }

    /** Wraps {@code s} at {@link #WIDTH} columns; continuation lines start with {@code hanging}. */
    static String wrap(String s, String hanging) {
        StringBuilder sb = new StringBuilder();
        int col = 0;
        for (String word : s.split(" ")) {
            if (word.isEmpty()) continue;
            if (col > 0 && col + 1 + word.length() > WIDTH) {
                sb.append('\n').append(hanging);
                col = hanging.length();
            } else if (col > 0) {
                sb.append(' ');
                col++;
            }
            sb.append(word);
            col += word.length();
        }
        return sb.toString();
    }

    private static final Pattern ENTITY = Pattern.compile("&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);");

    static String decode(String s) {
        Matcher m = ENTITY.matcher(s);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String e = m.group(1);
            String r = switch (e) {
                case "lt" -> "<";
                case "gt" -> ">";
                case "amp" -> "&";
                case "quot" -> "\"";
                case "apos" -> "'";
                case "nbsp" -> " ";
                case "mdash" -> "—";
                case "ndash" -> "–";
                default -> {
                    if (e.startsWith("#x")) yield Character.toString(Integer.parseInt(e.substring(2), 16));
                    if (e.startsWith("#")) yield Character.toString(Integer.parseInt(e.substring(1)));
                    yield m.group();
                }
            };
            m.appendReplacement(sb, Matcher.quoteReplacement(r));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
