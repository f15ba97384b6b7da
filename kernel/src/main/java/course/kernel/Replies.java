package course.kernel;

import java.util.List;
import org.rapaio.jupyter.kernel.GeneralProperties;
import org.rapaio.jupyter.kernel.core.LanguageInfo;
import org.rapaio.jupyter.kernel.message.ContentType;
import org.rapaio.jupyter.kernel.message.Header;
import org.rapaio.jupyter.kernel.message.MessageType;
import org.rapaio.shaded.com.google.gson.annotations.SerializedName;

/**
 * Replies that rapaio-jupyter-kernel 3.0.1 gets wrong or never sends, in the shape Jupyter's message schema asks
 * for (checked by the Jupyter project's own suite, {@code jupyter_kernel_test}: see
 * {@code tools/tests/test_kernel_conformance.py}). rapaio serialises any {@link ContentType} with Gson, so a
 * record with its own {@link MessageType} goes out like rapaio's own replies.
 */
final class Replies {

    private Replies() {}

    /** {@code kernel_info_reply}: rapaio's {@code ShellKernelInfoReply} has no {@code status}, which the schema requires. */
    public record KernelInfo(
            @SerializedName("status") String status,
            @SerializedName("protocol_version") String protocolVersion,
            @SerializedName("implementation") String implementation,
            @SerializedName("implementation_version") String implementationVersion,
            @SerializedName("language_info") LanguageInfo languageInfo,
            @SerializedName("banner") String banner,
            @SerializedName("help_links") List<LanguageInfo.Help> helpLinks,
            @SerializedName("debugger") boolean debugger)
            implements ContentType<KernelInfo> {

        static final MessageType<KernelInfo> TYPE = new MessageType<>("kernel_info_reply", KernelInfo.class);

        @Override
        public MessageType<KernelInfo> type() {
            return TYPE;
        }
    }

    /** The kernel's {@code kernel_info_reply}: rapaio's (name, version, language, banner, help link), with a status. */
    static KernelInfo kernelInfo() {
        GeneralProperties properties = GeneralProperties.defaultProperties();
        LanguageInfo language = LanguageInfo.kernelLanguageInfo();
        return new KernelInfo(
                "ok",
                Header.PROTOCOL_VERSION,
                properties.getKernelName(),
                properties.getKernelVersion(),
                language,
                language.name() + " " + language.version(),
                List.of(new LanguageInfo.Help(
                        "rapaio-jupyter-kernel homepage", "https://github.com/padreati/rapaio-jupyter-kernel")),
                false);
    }

    /**
     * {@code history_reply}: rapaio has none (its handler only logs "not implemented", so the client waits for
     * ever). Each entry is {@code [session, line, input]}, or {@code [session, line, [input, output]]} when the
     * request asked for output.
     */
    public record History(
            @SerializedName("status") String status,
            @SerializedName("history") List<List<Object>> history) implements ContentType<History> {

        static final MessageType<History> TYPE = new MessageType<>("history_reply", History.class);

        History(List<List<Object>> history) {
            this("ok", history);
        }

        @Override
        public MessageType<History> type() {
            return TYPE;
        }
    }
}
