package course.exercises.iocpu;

/** What mostly limits a task: the processor, or waiting for input and output. */
public enum WorkloadKind {
    /** The task computes most of the time; more threads than cores only adds switching. */
    CPU_BOUND,
    /** The task waits most of the time (network, disk, sleep); it needs a thread while it waits, not a core. */
    IO_BOUND
}
