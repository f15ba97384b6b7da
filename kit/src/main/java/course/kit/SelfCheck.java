package course.kit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.jsoup.nodes.Entities;

/**
 * The self-check at the end of a notebook: each question is answered in a cell of its own, as a value, and
 * checked at once. The question's text is in the notebook's markdown; the kit holds the expected answer and the
 * hint, so the notebook never prints an answer.
 *
 * <pre>{@code
 * SelfCheck.answer("02.1", Duration.ofSeconds(0));   // a duration: your answer in place of the 0
 * SelfCheck.answer("02.2", 0);                       // a number
 * SelfCheck.answer("02.3", SelfCheck.Choice.NONE);   // one of the options the markdown lists: A, B, C, D or E
 * SelfCheck.answer("04.1", null);                    // yes or no: true or false
 * }</pre>
 *
 * <p>It shows one line: {@code ✔} and a confirmation, or "not yet: " and the hint (the section to reread), or
 * "not answered yet" for the placeholder (zero, {@link Duration#ZERO}, {@link Choice#NONE}, null). A wrong answer
 * is never a {@code ✘} and never stops the notebook; only an unknown question id throws (a mistake in the cell).
 * Under a JupyterHub with a class view, whether it was answered and whether it is right (never the answer) also go
 * to the trainer's screen ({@link ClassView}, which the learner can turn off).
 *
 * <p><b>Where the answers live.</b> One JSON file per notebook, {@code course/kit/selfcheck/NN.json} in the kit's
 * resources (question {@code "02.1"} is in {@code 02.json}), so that the authors of different notebooks never
 * edit the same file:
 *
 * <pre>{@code
 * {"questions": [
 *   {"id": "02.1", "kind": "duration", "expect": "PT35S", "relative": 0.02,
 *    "right": "35 waves of 1 s: ⌈7,000/200⌉ · t", "hint": "reread § 1 · Article 000's café"},
 *   {"id": "02.2", "kind": "number", "expect": 21, "absolute": 0.5, "right": "…", "hint": "…"},
 *   {"id": "02.3", "kind": "choice", "expect": "C", "right": "…", "hint": "…"},
 *   {"id": "04.1", "kind": "boolean", "expect": false, "right": "…", "hint": "…"}]}
 * }</pre>
 *
 * A learners' template ({@code ./course template}) keeps these files with each answer sealed: a question there has
 * {@code id}, {@code kind} and {@code hint}, and its other fields in one {@code "sealed"} string, which this class
 * opens when it reads the file. That keeps the answers out of sight, not secret.
 *
 * <p>A number or a duration is right within {@code max(relative · |expect|, absolute)} (durations: {@code expect}
 * and {@code absolute} in ISO-8601, {@code "PT0.5S"}); without a tolerance it must be exact. A {@code choice}
 * compares the name of any enum constant, {@link Choice} or another. An answer of zero is the placeholder, so no
 * number or duration question may expect zero. {@code right} is the confirmation (it may say why, but should not
 * repeat a figure the learner did not give); {@code hint} names the section to reread.
 */
public final class SelfCheck {
    /** The JSON MIME type of a {@link Result} in a notebook's outputs. */
    public static final String MIME = "application/vnd.vthreads-course.selfcheck+json";
    /** Where the questions of notebook NN live, as a class-path resource: this, then {@code NN.json}. */
    public static final String RESOURCES = "course/kit/selfcheck/";

    private static final Map<String, Map<String, Question>> FILES = new ConcurrentHashMap<>();

    private SelfCheck() {}

    /** The options of a multiple-choice question, as the notebook's markdown lists them; NONE is the placeholder. */
    public enum Choice {
        /** Not answered yet. */
        NONE,
        /** Option A. */
        A,
        /** Option B. */
        B,
        /** Option C. */
        C,
        /** Option D. */
        D,
        /** Option E. */
        E
    }

    /**
     * Checks the answer to question {@code id} and shows the result.
     *
     * @param id     the question, {@code "NN.k"}, as the notebook names it
     * @param answer a {@link Duration}, a number, a {@link Choice} (or another enum constant) or a {@link Boolean},
     *               as the question asks; zero, {@link Choice#NONE} or null when not answered yet
     * @throws IllegalArgumentException if there is no question {@code id} (the message names the known ones)
     */
    public static void answer(String id, Object answer) {
        // void, not the Result: a value would also be the cell's value, shown a second time (or as an empty
        // output) under the line already shown
        Result r = check(id, answer);
        Notebook.display(r);
        ClassView.selfCheck(r.json());
    }

    /** The result of {@link #answer}, without showing it. */
    static Result check(String id, Object answer) {
        Question q = question(id);
        if (placeholder(answer)) return new Result(id, false, false, "not answered yet");
        String wrongKind = q.wrongKind(answer);
        if (wrongKind != null) return new Result(id, true, false, "not yet: " + wrongKind);
        return q.accepts(answer)
                ? new Result(id, true, true, q.right)
                : new Result(id, true, false, "not yet: " + q.hint);
    }

    private static boolean placeholder(Object a) {
        return a == null
                || a == Choice.NONE
                || (a instanceof Duration d && d.isZero())
                || (a instanceof Number n && n.doubleValue() == 0);
    }

    /** The ids of the questions of the notebook {@code notebook} ({@code "02"}), in file order; empty if none. */
    public static List<String> questions(String notebook) {
        return List.copyOf(file(notebook).keySet());
    }

    private static Question question(String id) {
        Objects.requireNonNull(id, "id");
        int dot = id.lastIndexOf('.');
        Map<String, Question> qs = dot > 0 ? file(id.substring(0, dot)) : Map.of();
        Question q = qs.get(id);
        if (q != null) return q;
        throw new IllegalArgumentException("no self-check question '" + id + "'"
                + (qs.isEmpty()
                        ? "; the questions known are " + known()
                        : "; notebook " + id.substring(0, dot) + " has " + String.join(", ", qs.keySet())));
    }

    /** Every question id in the files NN.json for NN from 00 to 99 (only for the message of an unknown id). */
    private static String known() {
        var all = new TreeSet<String>();
        for (int n = 0; n < 100; n++)
            all.addAll(file(String.format(Locale.ROOT, "%02d", n)).keySet());
        return all.isEmpty() ? "none" : String.join(", ", all);
    }

    private static Map<String, Question> file(String notebook) {
        return FILES.computeIfAbsent(notebook, SelfCheck::load);
    }

    private static Map<String, Question> load(String notebook) {
        String name = RESOURCES + notebook + ".json";
        ClassLoader cl = SelfCheck.class.getClassLoader();
        try (InputStream in = cl.getResourceAsStream(name)) {
            if (in == null) return Map.of();
            JsonNode root = new ObjectMapper().readTree(in);
            var out = new LinkedHashMap<String, Question>();
            for (JsonNode n : root.path("questions")) {
                Question q = Question.from(n, name);
                if (!q.id.startsWith(notebook + ".")) {
                    throw new IllegalStateException(name + ": question " + q.id + " belongs in another file");
                }
                if (out.put(q.id, q) != null) throw new IllegalStateException(name + ": question " + q.id + " twice");
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
    }

    /** What a sealed answer's key starts with (see {@code Question.opened}). */
    static final String SEAL_KEY = "vthreads-course self-check ";

    /** One question's expected answer, tolerance, confirmation and hint. */
    private record Question(
            String id, String kind, JsonNode expect, double relative, JsonNode absolute, String right, String hint) {
        static final List<String> KINDS = List.of("number", "duration", "choice", "boolean");

        static Question from(JsonNode sealedOrNot, String file) {
            String id = text(sealedOrNot, "id", file, null);
            JsonNode n = opened(sealedOrNot, id, file);
            String kind = text(n, "kind", file, id);
            if (!KINDS.contains(kind)) {
                throw new IllegalStateException(
                        file + ": question " + id + " has kind '" + kind + "', not one of " + KINDS);
            }
            JsonNode expect = n.get("expect");
            if (expect == null || expect.isNull()) {
                throw new IllegalStateException(file + ": question " + id + " has no \"expect\"");
            }
            var q = new Question(
                    id,
                    kind,
                    expect,
                    n.path("relative").asDouble(0),
                    n.get("absolute"),
                    text(n, "right", file, id),
                    text(n, "hint", file, id));
            q.validate(file);
            return q;
        }

        /**
         * The question with its answer in the clear: as it is, or, where a learners' template sealed it (a field
         * {@code "sealed"}), with the sealed fields opened: base64, XOR-ed with SHA-256 of {@link #SEAL_KEY}, the
         * id, a colon and the number of each 32-byte block ({@code tools/course_cli/answers.py} seals them so).
         */
        private static JsonNode opened(JsonNode n, String id, String file) {
            JsonNode sealed = n.get("sealed");
            if (sealed == null) return n;
            try {
                byte[] data = Base64.getDecoder().decode(sealed.asText());
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                for (int block = 0; block * 32 < data.length; block++) {
                    byte[] key = sha.digest((SEAL_KEY + id + ":" + block).getBytes(StandardCharsets.UTF_8));
                    for (int i = 0; i < key.length && block * 32 + i < data.length; i++) data[block * 32 + i] ^= key[i];
                }
                ObjectNode open = ((ObjectNode) n).deepCopy();
                open.remove("sealed");
                open.setAll((ObjectNode) new ObjectMapper().readTree(data));
                return open;
            } catch (IOException | IllegalArgumentException | ClassCastException e) {
                throw new IllegalStateException(
                        file + ": question " + id + " has a \"sealed\" answer that does not open", e);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("no SHA-256 in this JVM", e);
            }
        }

        private static String text(JsonNode n, String field, String file, String id) {
            JsonNode v = n.get(field);
            if (v == null || !v.isTextual() || v.asText().isBlank()) {
                throw new IllegalStateException(
                        file + ": " + (id == null ? "a question" : "question " + id) + " has no \"" + field + "\"");
            }
            return v.asText();
        }

        private void validate(String file) {
            try {
                switch (kind) {
                    case "number" -> {
                        if (!expect.isNumber() || expect.asDouble() == 0)
                            throw new IllegalStateException("a number, not 0");
                    }
                    case "duration" -> {
                        if (!duration(expect).isPositive()) throw new IllegalStateException("a positive duration");
                        if (absolute != null) duration(absolute);
                    }
                    case "choice" -> {
                        if (!expect.isTextual() || expect.asText().equals("NONE"))
                            throw new IllegalStateException("a name");
                    }
                    default -> {
                        if (!expect.isBoolean()) throw new IllegalStateException("true or false");
                    }
                }
            } catch (IllegalStateException | DateTimeParseException e) {
                throw new IllegalStateException(file + ": question " + id + " (" + kind + ") must expect "
                        + (e instanceof IllegalStateException ? e.getMessage() : "an ISO-8601 duration such as PT35S"));
            }
        }

        private static Duration duration(JsonNode n) {
            return Duration.parse(n.asText());
        }

        /** Why {@code answer} is not of this question's kind, or null. */
        String wrongKind(Object answer) {
            boolean ok = switch (kind) {
                case "number" -> answer instanceof Number;
                case "duration" -> answer instanceof Duration;
                case "choice" -> answer instanceof Enum<?>;
                default -> answer instanceof Boolean;
            };
            if (ok) return null;
            String like = switch (kind) {
                case "number" -> "a number, like 42 or 0.5";
                case "duration" -> "a Duration, like Duration.ofSeconds(3) or Duration.ofMillis(250)";
                case "choice" -> "one of the options, like SelfCheck.Choice.B";
                default -> "true or false";
            };
            return id + " asks for " + like + ", not " + answer.getClass().getSimpleName();
        }

        boolean accepts(Object answer) {
            return switch (kind) {
                case "number" ->
                    within(
                            ((Number) answer).doubleValue(),
                            expect.asDouble(),
                            absolute == null ? 0 : absolute.asDouble());
                case "duration" ->
                    within(
                            ((Duration) answer).toNanos(),
                            duration(expect).toNanos(),
                            absolute == null ? 0 : duration(absolute).toNanos());
                case "choice" -> ((Enum<?>) answer).name().equals(expect.asText());
                default -> ((Boolean) answer) == expect.asBoolean();
            };
        }

        private boolean within(double got, double want, double abs) {
            double slack = Math.max(relative * Math.abs(want), abs);
            return Math.abs(got - want) <= slack + Math.ulp(want);
        }
    }

    /**
     * One answer, checked.
     *
     * @param id       the question
     * @param answered whether an answer was given (not the placeholder)
     * @param correct  whether it is right
     * @param line     what is shown after the mark: the confirmation, "not yet: " and the hint, or "not answered yet"
     */
    public record Result(String id, boolean answered, boolean correct, String line) {
        /** {@code ✔ 02.1: …}, {@code 02.1 · not yet: …} or {@code 02.1 · not answered yet}. */
        @Override
        public String toString() {
            return correct ? Check.PASS + " " + id + ": " + line : id + " · " + line;
        }

        /** The same line as HTML. */
        public String html() {
            String colour = correct ? "#2ca02c" : answered ? "#8c564b" : "#777777";
            return "<div style='font-family:sans-serif;color:" + colour + "'>" + Entities.escape(toString()) + "</div>";
        }

        /** The {@link #MIME} entry: {@code {"id", "answered", "correct"}}. */
        public Map<String, Object> json() {
            var m = new LinkedHashMap<String, Object>();
            m.put("id", id);
            m.put("answered", answered);
            m.put("correct", correct);
            return m;
        }
    }
}
