package course.kit.models;

import course.kit.Limits;
import course.kit.Prediction;

/** Notebook 01's predictions: what one thread costs to create, start and end, and what a parked one weighs. */
public final class CreationModel {
    private CreationModel() {}

    /**
     * One platform thread, created, started and ended while many others are: the calibration's CPU per thread.
     *
     * @param calibratedMicros the calibration's platform thread, in µs
     * @param oneAtATimeMicros section 1's one-at-a-time loop, per thread
     * @param virtualMicros    a virtual thread, measured the same way
     */
    public static Prediction.Model platform(double calibratedMicros, double oneAtATimeMicros, double virtualMicros) {
        return Prediction.Model.of("the calibration: CPU per thread, 500 at once", calibratedMicros, "µs")
                .ifNear(oneAtATimeMicros, "section 1's loop, which adds two hand-offs to every thread")
                .ifNear(
                        virtualMicros,
                        "a virtual thread: a platform thread is an OS thread, made, started and ended by system calls");
    }

    /**
     * One virtual thread, created, started and ended while many others are: the calibration's CPU per thread.
     *
     * @param calibratedMicros the calibration's virtual thread, in µs
     * @param oneAtATimeMicros section 1's one-at-a-time loop, per thread
     * @param handOffMicros    section 2's reused thread: hand-offs alone
     * @param platformMicros   a platform thread, measured the same way
     */
    public static Prediction.Model virtual(
            double calibratedMicros, double oneAtATimeMicros, double handOffMicros, double platformMicros) {
        return Prediction.Model.of("the calibration: CPU per thread, 10,000 at once", calibratedMicros, "µs")
                .ifNear(oneAtATimeMicros, "section 1's loop: most of its figure is the two hand-offs, not creation")
                .ifNear(handOffMicros, "section 2's hand-offs alone: creation is what remains without them")
                .ifNear(
                        15.5,
                        "article 001's 15.5 µs a thread: one at a time, its loop timed two hand-offs per thread as well")
                .ifNear(
                        platformMicros,
                        "a platform thread: a virtual thread needs no OS thread, only heap objects and a queue push");
    }

    /**
     * The heap one parked virtual thread holds: at most {@link Limits#BYTES_PER_VIRTUAL_THREAD}.
     *
     * @param stackKb a platform thread's stack reservation on this JVM, in KB
     */
    public static Prediction.Model parked(long stackKb) {
        return Prediction.Model.of(
                        "at most Limits' 2 KB: a Thread, its continuation, a stack chunk of its frames",
                        Limits.BYTES_PER_VIRTUAL_THREAD,
                        "B")
                .ifNear(
                        stackKb * 1024.0,
                        "a platform thread's stack reservation: a parked virtual thread keeps only the frames it has")
                .ifNear(170, "the Thread object alone: its frames are kept too, in a stack chunk on the heap");
    }
}
