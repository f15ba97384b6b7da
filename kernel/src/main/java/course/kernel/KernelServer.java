package course.kernel;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Stack;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import jdk.jshell.EvalException;
import jdk.jshell.SnippetEvent;
import org.rapaio.jupyter.kernel.channels.AbstractChannel;
import org.rapaio.jupyter.kernel.channels.Channels;
import org.rapaio.jupyter.kernel.channels.ControlChannel;
import org.rapaio.jupyter.kernel.channels.HeartbeatChannel;
import org.rapaio.jupyter.kernel.channels.IOPubChannel;
import org.rapaio.jupyter.kernel.channels.MessageHandler;
import org.rapaio.jupyter.kernel.channels.ShellChannel;
import org.rapaio.jupyter.kernel.channels.StdinChannel;
import org.rapaio.jupyter.kernel.core.CompleteMatches;
import org.rapaio.jupyter.kernel.core.ConnectionProperties;
import org.rapaio.jupyter.kernel.core.RapaioKernel;
import org.rapaio.jupyter.kernel.core.java.RapaioExecutionControl;
import org.rapaio.jupyter.kernel.core.magic.MagicCompleteResult;
import org.rapaio.jupyter.kernel.core.magic.MagicInspectResult;
import org.rapaio.jupyter.kernel.core.magic.MagicIsCompleteResult;
import org.rapaio.jupyter.kernel.display.DisplayData;
import org.rapaio.jupyter.kernel.message.ContentType;
import org.rapaio.jupyter.kernel.message.Header;
import org.rapaio.jupyter.kernel.message.Message;
import org.rapaio.jupyter.kernel.message.MessageType;
import org.rapaio.jupyter.kernel.message.messages.ControlInterruptReply;
import org.rapaio.jupyter.kernel.message.messages.ControlShutdownReply;
import org.rapaio.jupyter.kernel.message.messages.ControlShutdownRequest;
import org.rapaio.jupyter.kernel.message.messages.ErrorReply;
import org.rapaio.jupyter.kernel.message.messages.IOPubError;
import org.rapaio.jupyter.kernel.message.messages.IOPubStatus;
import org.rapaio.jupyter.kernel.message.messages.IOPubStream;
import org.rapaio.jupyter.kernel.message.messages.ShellCompleteReply;
import org.rapaio.jupyter.kernel.message.messages.ShellCompleteRequest;
import org.rapaio.jupyter.kernel.message.messages.ShellExecuteRequest;
import org.rapaio.jupyter.kernel.message.messages.ShellHistoryRequest;
import org.rapaio.jupyter.kernel.message.messages.ShellInspectReply;
import org.rapaio.jupyter.kernel.message.messages.ShellInspectRequest;
import org.rapaio.jupyter.kernel.message.messages.ShellIsCompleteRequest;
import org.rapaio.org.zeromq.ZMQ;

/**
 * Serves one rapaio {@link RapaioKernel} over Jupyter's five sockets, in place of rapaio's
 * {@code Channels.connect} and its loop threads. rapaio keeps doing the work (evaluation, magics, display,
 * completion); this class owns the threads and the control socket.
 *
 * <ul>
 *   <li><b>Start.</b> The sockets are bound and {@code kernel_info} is answered while rapaio builds its JShell
 *   (about a second); other requests wait for it. The message handlers are installed before any of them runs,
 *   and each loop thread is created already running (rapaio's {@code LoopThread} sets its flag after {@code start()}, and a loop that
 *   reads the flag first exits silently: the kernel then never answers {@code kernel_info}).</li>
 *   <li><b>Control.</b> Interrupt and shutdown are answered on the control socket by a thread of their own,
 *   with the request as parent. They never touch the message id of the cell that is running, so the cell's
 *   own replies and outputs still go to that cell.</li>
 *   <li><b>Interrupt</b> ({@code interrupt_request} or SIGINT): {@link #interruptCell}.</li>
 * </ul>
 */
final class KernelServer {

    private static final Logger LOG = Logger.getLogger(KernelServer.class.getSimpleName());

    /** Printed in a cell's output, after the error, when an interrupt stopped it. */
    static final String INTERRUPTED_MESSAGE =
            "Interrupted: the cell was stopped. The kernel is ready for the next cell.\n";
    /** Printed when a cell failed because the JVM could not start one more platform thread. */
    static final String THREADS_EXHAUSTED_MESSAGE =
            "The cell ran out of platform threads (the operating system's limit for this kernel). "
                    + "The threads it started were stopped so that the kernel can go on.\n";

    /** Set (true) on the JVM of the training run that writes the kernel's AOT cache. */
    static final String AOT_TRAINING_PROPERTY = "course.kernel.aotTraining";

    /** How long a poll waits for a message: the most a message waits before its loop sees it. */
    private static final long POLL_MILLIS = 20;
    /** How long the next cell waits for the threads of an interrupted cell to end. */
    private static final long SETTLE_MILLIS = 1500;

    private final CompletableFuture<RapaioKernel> kernelReady = new CompletableFuture<>();
    private volatile RapaioKernel kernel;
    private final ConnectionProperties props;
    private final Channels channels;
    private final HeartbeatChannel heartbeat;
    private final ShellChannel shell;
    private final ControlChannel control;
    private final StdinChannel stdin;
    private final IOPubChannel iopub;
    private volatile RapaioExecutionControl execution;
    private final History history = new History();
    /** Read once: whether JShell can show the JDK's Javadoc (see {@link CodeHelp#jdkSourcesPresent}). */
    private final boolean jdkSources = CodeHelp.jdkSourcesPresent();

    private final Object interruptLock = new Object();
    private boolean kernelInfoAnswered;
    private volatile boolean cellRunning;
    private volatile boolean cellInterrupted;
    private volatile boolean cellExhaustedThreads;
    private Loop heartbeatLoop;
    private Loop shellLoop;
    private Loop controlLoop;

    KernelServer(ConnectionProperties props) throws Exception {
        this.props = props;
        this.channels = new Channels(props);
        this.heartbeat = RapaioInternals.channel(channels, "heartbeat", HeartbeatChannel.class);
        this.shell = RapaioInternals.channel(channels, "shell", ShellChannel.class);
        this.control = RapaioInternals.channel(channels, "control", ControlChannel.class);
        this.stdin = RapaioInternals.channel(channels, "stdin", StdinChannel.class);
        this.iopub = RapaioInternals.channel(channels, "iopub", IOPubChannel.class);
    }

    /**
     * Binds the sockets and starts the loops; returns at once. {@code kernel_info} is answered from now on;
     * every other shell request waits until {@link #attach} has given the loops a kernel.
     */
    void start() {
        iopub.bind(props); // no thread: messages are sent by whoever publishes
        stdin.bind(props); // no thread: read by the cell that asks for input
        heartbeatLoop = bindLoop(heartbeat, props.hbPort(), "Heartbeat", this::echoHeartbeat);
        controlLoop = bindLoop(control, props.controlPort(), "Control", this::serveControl);
        shellLoop = bindLoop(shell, props.shellPort(), "Shell", this::serveShell);

        iopub.sendMessage(new Message<>(MessageType.IOPUB_STATUS, IOPubStatus.STARTING));
    }

    /** Hands the loops rapaio's kernel once its JShell is ready: the handlers are installed before any runs. */
    void attach(RapaioKernel kernel) {
        this.kernel = kernel;
        kernel.registerChannels(channels);
        RapaioInternals.setField(channels, Channels.class, "handlers", shellHandlers());
        kernel.javaEngine().getShell().onSnippetEvent(this::onSnippetEvent);
        this.execution = RapaioInternals.executionControl(kernel);
        kernelReady.complete(kernel);
        LOG.info("course kernel ready " + Launcher.millisSinceStart() + " ms after the JVM started (stop checks "
                + (StopAgent.isInstalled() ? "woven" : "NOT woven: no -javaagent") + ")");
    }

    /** The kernel could not be built: the loops answer nothing more, and the launcher exits. */
    void failed(Throwable t) {
        kernelReady.completeExceptionally(t);
    }

    /**
     * Ends the process after a shutdown request has been answered, on a thread of its own: it must not wait
     * for the kernel to finish starting, nor for learner threads, which are not daemons.
     */
    private void exitSoon() {
        Thread.ofPlatform().name("kernel-shutdown").start(() -> {
            // A training run (tools/kernel_aot.py) writes the AOT cache while it exits, which takes seconds.
            if (!Boolean.getBoolean(AOT_TRAINING_PROPERTY)) {
                Thread.ofPlatform().daemon().name("kernel-halt").start(() -> {
                    try {
                        Thread.sleep(3000);
                    } catch (InterruptedException ignored) {
                    }
                    Runtime.getRuntime().halt(1); // System.exit itself hung (a learner's shutdown hook, say)
                });
            }
            close();
            System.exit(0);
        });
    }

    /** Stops the loops and closes the sockets, waiting at most about a second. */
    void close() {
        for (Loop l : new Loop[] {shellLoop, controlLoop, heartbeatLoop}) {
            if (l != null) {
                l.shutdown();
            }
        }
        for (Loop l : new Loop[] {shellLoop, controlLoop, heartbeatLoop}) {
            if (l != null && l != Thread.currentThread()) {
                try {
                    l.join(500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        Thread closer = Thread.ofPlatform().daemon().name("kernel-close").start(() -> {
            try {
                RapaioKernel k = kernel;
                if (k != null) {
                    k.onShutdown();
                }
            } catch (Throwable t) {
                LOG.log(Level.FINE, "JShell close failed", t);
            }
            try {
                channels.close();
            } catch (Throwable t) {
                LOG.log(Level.FINE, "socket close failed", t);
            }
        });
        try {
            closer.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------------------------------- handlers

    @SuppressWarnings({"rawtypes", "unchecked"})
    private Map<MessageType<?>, MessageHandler> shellHandlers() {
        Map<MessageType<?>, MessageHandler> h = new HashMap<>();
        h.put(MessageType.SHELL_EXECUTE_REQUEST, (MessageHandler<ShellExecuteRequest>) this::handleExecute);
        h.put(MessageType.SHELL_INSPECT_REQUEST, (MessageHandler<ShellInspectRequest>) this::handleInspect);
        h.put(MessageType.SHELL_COMPLETE_REQUEST, (MessageHandler<ShellCompleteRequest>) this::handleComplete);
        h.put(MessageType.SHELL_HISTORY_REQUEST, (MessageHandler<ShellHistoryRequest>) this::handleHistory);
        h.put(MessageType.SHELL_IS_COMPLETE_REQUEST, (MessageHandler<ShellIsCompleteRequest>) this::handleIsComplete);
        h.put(MessageType.SHELL_KERNEL_INFO_REQUEST, (MessageHandler) m -> {
            channels.busyThenIdle();
            channels.reply(Replies.kernelInfo());
        });
        h.put(MessageType.CUSTOM_COMM_OPEN, (MessageHandler) kernel::handleCommOpenCommand);
        h.put(MessageType.CUSTOM_COMM_MSG, (MessageHandler) kernel::handleCommMsgCommand);
        h.put(MessageType.CUSTOM_COMM_CLOSE, (MessageHandler) kernel::handleCommCloseCommand);
        h.put(MessageType.SHELL_COMM_INFO_REQUEST, (MessageHandler) kernel::handleCommInfoRequest);
        return h;
    }

    /**
     * rapaio's execute handler, with the stop state reset before the cell and reported after it, and the cell kept
     * in the session's {@link History} (with its result's plain text) unless the request is silent or asks not to.
     */
    private void handleExecute(Message<ShellExecuteRequest> message) {
        settleInterruptedThreads();
        cellInterrupted = false;
        cellExhaustedThreads = false;
        cellRunning = true;
        ShellExecuteRequest request = message.content();
        int count = RapaioInternals.nextExecutionCount();
        String[] result = PlainText.capture();
        try {
            kernel.handleExecuteRequest(message);
        } catch (Throwable t) {
            // rapaio catches Exceptions only; an Error thrown while it renders a value (learner code) lands here.
            answerEscapedError(t);
        } finally {
            cellRunning = false;
            PlainText.endCapture();
            replyAfterOutput();
        }
        if (request != null && request.storeHistory() && !request.silent()) {
            history.add(count, request.code(), result[0]);
        }
        if (cellInterrupted) {
            channels.publish(new IOPubStream(IOPubStream.StreamName.ERR, INTERRUPTED_MESSAGE));
        } else if (cellExhaustedThreads) {
            stopSnippetThreads("thread exhaustion");
            channels.publish(new IOPubStream(IOPubStream.StreamName.ERR, THREADS_EXHAUSTED_MESSAGE));
        }
    }

    // ------------------------------------------------------------------------------------------- help, history

    /**
     * Shift+Tab. A magic's own help first (rapaio's magics), else {@link CodeHelp#lookup}: the signature and Javadoc
     * of the class, method or constructor at the cursor, which may be in a name, just after it or just after a
     * call's parentheses.
     */
    private void handleInspect(Message<ShellInspectRequest> message) {
        ShellInspectRequest request = message.content();
        channels.busyThenIdle();
        try {
            String code = request.code() == null ? "" : request.code();
            int cursor = CodeHelp.utf16(code, request.cursorPos());
            MagicInspectResult magic = kernel.magicEngine().inspect(kernel.executionContext(), code, cursor);
            DisplayData data;
            if (magic.handled()) {
                data = magic.displayData();
            } else {
                JavadocSources.install(); // before JShell's first documentation request: it reads the list once
                var sca = kernel.javaEngine().getSourceAnalysis();
                var docs = SourceJavadoc.fill(sca, CodeHelp.lookup(sca, code, cursor), JavadocSources.roots());
                data = docs.isEmpty() ? null : CodeHelp.render(docs, jdkSources);
            }
            channels.reply(new ShellInspectReply(data != null, data));
        } catch (Exception e) {
            channels.replyError(MessageType.SHELL_INSPECT_REPLY.newError(), ErrorReply.of(kernel, e, 0));
        }
    }

    /** Tab: a magic's completions, else {@link CodeHelp#complete}; positions in code points, as the protocol says. */
    private void handleComplete(Message<ShellCompleteRequest> message) {
        ShellCompleteRequest request = message.content();
        channels.busyThenIdle();
        try {
            String code = request.code() == null ? "" : request.code();
            int cursor = CodeHelp.utf16(code, request.cursorPos());
            MagicCompleteResult magic = kernel.magicEngine().complete(kernel, code, cursor);
            CompleteMatches matches = magic.handled()
                    ? magic.replacementOptions()
                    : CodeHelp.complete(kernel.javaEngine().getSourceAnalysis(), code, cursor);
            if (matches == null) {
                channels.reply(ShellCompleteReply.empty(CodeHelp.codePoints(code, cursor)));
            } else {
                channels.reply(new ShellCompleteReply(
                        "ok",
                        matches.replacements(),
                        CodeHelp.codePoints(code, matches.start()),
                        CodeHelp.codePoints(code, matches.end()),
                        Map.of()));
            }
        } catch (Exception e) {
            channels.replyError(MessageType.SHELL_COMPLETE_REPLY.newError(), ErrorReply.of(kernel, e, 0));
        }
    }

    /** Whether a cell is finished: a magic is (rapaio's answer), Java as {@link CodeHelp#isComplete} says. */
    private void handleIsComplete(Message<ShellIsCompleteRequest> message) {
        String code = message.content().code() == null ? "" : message.content().code();
        channels.busyThenIdle();
        MagicIsCompleteResult magic = kernel.magicEngine().isComplete(kernel, code);
        channels.reply(
                magic.handled()
                        ? magic.buildReply()
                        : CodeHelp.isComplete(kernel.javaEngine().getSourceAnalysis(), code));
    }

    /** rapaio never answers a history request; this kernel answers from its {@link History}. */
    private void handleHistory(Message<ShellHistoryRequest> message) {
        channels.busyThenIdle();
        channels.reply(new Replies.History(history.answer(message.content())));
    }

    /**
     * rapaio schedules a cell's {@code execute_reply} to go out first among its after-actions, before the cell's
     * last output is flushed; the actions run in reverse order of scheduling, and the first two it schedules are
     * "free the message id" and "publish idle". This moves the reply to run just before idle, so a client gets
     * the cell's outputs, then its reply, then idle at once, as ipykernel sends them: a client that reads outputs
     * until idle once the reply is in (the Jupyter project's {@code jupyter_kernel_test} does) never waits on a
     * flush.
     */
    private void replyAfterOutput() {
        Stack<Runnable> actions = RapaioInternals.afterActions(channels);
        synchronized (actions) {
            if (actions.size() > 3) {
                actions.add(2, actions.pop());
            }
        }
    }

    private void onSnippetEvent(SnippetEvent event) {
        if (event.exception() instanceof EvalException e
                && OutOfMemoryError.class.getName().equals(e.getExceptionClassName())
                && String.valueOf(e.getMessage()).contains("native thread")) {
            cellExhaustedThreads = true;
        }
    }

    private void answerEscapedError(Throwable t) {
        LOG.log(Level.WARNING, "error escaped the execute handler", t);
        String name =
                t instanceof CellInterruptedError ? "Interrupted" : t.getClass().getSimpleName();
        String msg = String.valueOf(t.getMessage());
        List<String> trace = List.of(t.getClass().getName() + ": " + msg);
        channels.publish(new IOPubError(name, msg, trace));
        int count = RapaioInternals.lastExecutionCount();
        channels.scheduleAfter(() -> channels.replyError(
                MessageType.SHELL_EXECUTE_REPLY.newError(), new ErrorReply(name, msg, trace, count)));
    }

    // ------------------------------------------------------------------------------------------- interrupt

    /**
     * Stops the code of the running cell, keeping the kernel usable:
     * <ol>
     *   <li>requests a stop: woven snippet code ends at its next loop iteration or call, on every thread;</li>
     *   <li>cancels rapaio's running snippet futures (never its executor, which must run the next cell), which
     *   interrupts the snippet thread and makes the cell end with rapaio's "interrupted" error;</li>
     *   <li>interrupts every other platform thread that runs snippet code (pool workers blocked in sleep, ...).</li>
     * </ol>
     * The stop request is cleared when the next cell starts, after those threads have ended.
     */
    void interruptCell(String why) {
        synchronized (interruptLock) {
            if (cellRunning) {
                cellInterrupted = true;
            }
            stopSnippetThreads(why);
        }
    }

    private void stopSnippetThreads(String why) {
        CellStop.request();
        try {
            RapaioExecutionControl ec = execution;
            if (ec != null) {
                ec.interrupt();
            }
        } catch (Throwable t) {
            LOG.log(Level.WARNING, "cancelling the running snippet failed", t);
        }
        int n = CellStop.interruptSnippetThreads();
        LOG.info("stop (" + why + "): interrupted " + n + " thread(s) running cell code");
    }

    private void settleInterruptedThreads() {
        if (CellStop.isRequested()) {
            int left = CellStop.awaitNoSnippetThreads(SETTLE_MILLIS, TimeUnit.MILLISECONDS);
            if (left > 0) {
                LOG.warning(left + " thread(s) of an interrupted cell are still running cell code");
            }
            CellStop.clear();
        }
    }

    // ------------------------------------------------------------------------------------------- loops

    private Loop bindLoop(
            AbstractChannel channel, int port, String name, java.util.function.Consumer<ZMQ.Poller> body) {
        ZMQ.Socket socket = RapaioInternals.socket(channel);
        socket.bind(props.formatAddress(port));
        ZMQ.Poller poller = RapaioInternals.context(channel).poller(1);
        poller.register(socket, ZMQ.Poller.POLLIN);
        Loop loop = new Loop(name, () -> body.accept(poller));
        loop.start();
        return loop;
    }

    private void echoHeartbeat(ZMQ.Poller poller) {
        if (poller.poll(POLL_MILLIS) > 0) {
            ZMQ.Socket socket = RapaioInternals.socket(heartbeat);
            byte[] ping = socket.recv();
            if (ping != null) {
                socket.send(ping);
            }
        }
    }

    /** What rapaio's shell loop does, without its start race and without dying on an unexpected error. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private void serveShell(ZMQ.Poller poller) {
        if (poller.poll(POLL_MILLIS) <= 0) {
            return;
        }
        Message<?> message = shell.readMessage();
        if (message == null) {
            return;
        }
        MessageType<?> type = message.header().type();
        if (type == MessageType.SHELL_KERNEL_INFO_REQUEST) {
            // Needs no JShell: answered while the kernel is still starting, so a client sees it connected at once.
            channels.setMsgId(message.getId());
            try {
                channels.busyThenIdle();
                channels.reply(Replies.kernelInfo());
            } finally {
                channels.runAfterActions();
            }
            if (!kernelInfoAnswered) {
                kernelInfoAnswered = true;
                LOG.info("first kernel_info answered " + Launcher.millisSinceStart() + " ms after the JVM started");
            }
            return;
        }
        try {
            kernelReady.join();
        } catch (RuntimeException e) {
            LOG.severe("no kernel to handle " + type.name() + ": " + e);
            return;
        }
        MessageHandler handler = channels.getHandler(type);
        if (handler == null) {
            LOG.warning("unhandled shell message: " + type.name());
            return;
        }
        channels.setMsgId(message.getId());
        try {
            handler.handle(message);
        } catch (Throwable t) {
            LOG.log(Level.SEVERE, "error handling " + type.name(), t);
        } finally {
            channels.runAfterActions();
        }
    }

    private void serveControl(ZMQ.Poller poller) {
        if (poller.poll(POLL_MILLIS) <= 0) {
            return;
        }
        Message<?> request = control.readMessage();
        if (request == null) {
            return;
        }
        MessageType<?> type = request.header().type();
        if (type == MessageType.CONTROL_INTERRUPT_REQUEST) {
            status(request, IOPubStatus.BUSY);
            interruptCell("interrupt_request " + request.header().id());
            control.sendMessage(
                    new Message<>(request.getId(), MessageType.CONTROL_INTERRUPT_REPLY, new ControlInterruptReply()));
            status(request, IOPubStatus.IDLE);
        } else if (type == MessageType.CONTROL_SHUTDOWN_REQUEST) {
            boolean restart = request.content() instanceof ControlShutdownRequest r && r.restart();
            status(request, IOPubStatus.BUSY);
            interruptCell("shutdown_request");
            control.sendMessage(new Message<>(
                    request.getId(),
                    MessageType.CONTROL_SHUTDOWN_REPLY,
                    restart ? ControlShutdownReply.SHUTDOWN_AND_RESTART : ControlShutdownReply.SHUTDOWN));
            status(request, IOPubStatus.IDLE);
            exitSoon();
        } else if (type == MessageType.SHELL_KERNEL_INFO_REQUEST) {
            status(request, IOPubStatus.BUSY);
            var info = Replies.kernelInfo();
            control.sendMessage(new Message<>(request.getId(), info.type(), info));
            status(request, IOPubStatus.IDLE);
        } else {
            LOG.info("unhandled control message: " + type.name());
        }
    }

    /** Publishes a status whose parent is {@code request} (a control message), leaving the cell's id alone. */
    private void status(Message<?> request, IOPubStatus status) {
        publish(request, status);
    }

    private <T extends ContentType<T>> void publish(Message<?> parent, T content) {
        iopub.sendMessage(new Message<>(
                Collections.emptyList(),
                new Header<>(parent.getId(), content.type()),
                parent.header(),
                null,
                content,
                null));
    }

    /** A loop thread that is running from the moment it exists, and survives an error in one iteration. */
    static final class Loop extends Thread {

        private volatile boolean running = true;
        private final Runnable body;

        Loop(String name, Runnable body) {
            super(name);
            this.body = body;
        }

        @Override
        public void run() {
            while (running) {
                try {
                    body.run();
                } catch (Throwable t) {
                    if (!running) {
                        return;
                    }
                    LOG.log(Level.SEVERE, getName() + " loop error", t);
                    try {
                        Thread.sleep(POLL_MILLIS);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }

        void shutdown() {
            running = false;
        }
    }
}
