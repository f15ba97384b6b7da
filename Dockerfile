# The Java virtual threads course: JupyterLab 4, JDK 25, Maven and the course's own kernel.
#
#   docker build -t vthreads-course .
#   docker run -it --rm -p 8888:8888 -v vthreads-work:/home/jovyan/work vthreads-course
#
# Binder builds this file as it is (repo2docker); JupyterHub uses the built image as its
# single-user image (deploy/jupyterhub/values.yaml). The image runs no install step of its own:
# apart from the conda environment and the base image, everything comes from ./course and Maven,
# the same commands that CI runs (tools/tests/test_image_build.py runs the Maven and ./course steps).
#
# Where things are:
#   /opt/vthreads-course                 the pristine, built course (read it, don't edit it)
#   ~/work/vthreads-course               the learner's copy, made on first start (keep ~/work on a volume)
#   $CONDA_DIR/share/jupyter/kernels/vthreads-java   the kernel, outside $HOME
#   /opt/m2/repository                   every Maven artifact the course needs, for every user, offline

# A dated build of docker-stacks' base-notebook (Ubuntu 24.04, Python 3.13, JupyterLab 4.6):
# dated tags never move. Tags: https://quay.io/repository/jupyter/base-notebook?tab=tags
FROM quay.io/jupyter/base-notebook:2026-07-28

SHELL ["/bin/bash", "-o", "pipefail", "-c"]

USER root

# Headless AWT charts (XChart) need fontconfig and a font, or they fail with "Fontconfig head is null".
RUN apt-get update --yes && \
    apt-get install --yes --no-install-recommends fontconfig fonts-dejavu-core && \
    apt-get clean && rm -rf /var/lib/apt/lists/*

# conda-forge's openjdk lives in $CONDA_DIR/lib/jvm. Naming it in JAVA_HOME makes ./course, Maven
# and any terminal use JDK 25 even where the conda environment is not activated (Dockerfile RUN
# steps, JupyterHub's single-user server). MAVEN_OPTS points every user's Maven at the shared,
# pre-filled repository outside $HOME, so grading works with no network and survives a home volume.
# COURSE_PRISTINE_HOME names the image's own copy as the pristine one: a learner who edits a test in
# ~/work is graded with the course's test (the image has no git history to restore it from).
ENV JAVA_HOME="${CONDA_DIR}/lib/jvm" \
    VTHREADS_COURSE=/opt/vthreads-course \
    COURSE_PRISTINE_HOME=/opt/vthreads-course \
    MAVEN_OPTS="-Dmaven.repo.local=/opt/m2/repository"

RUN mkdir -p /opt/vthreads-course /opt/m2/repository && \
    chown -R "${NB_UID}:${NB_GID}" /opt/vthreads-course /opt/m2 && \
    fix-permissions /opt/vthreads-course && \
    fix-permissions /opt/m2

USER ${NB_UID}

# JupyterLab 4, OpenJDK 25, Maven, nbclient/nbconvert-core and pytest, into the base environment.
# `mamba install --prefix` names the environment by its folder: `mamba env update --name base` goes
# through the root-prefix special case that mamba 2 has broken before (mamba-org/mamba#3354, #3902).
COPY --chown=${NB_UID}:${NB_GID} environment.yml /tmp/environment.yml
RUN mamba install --yes --prefix "${CONDA_DIR}" --file /tmp/environment.yml && \
    mamba clean --all -f -y && \
    rm -f /tmp/environment.yml && \
    fix-permissions "${CONDA_DIR}" && \
    fix-permissions "/home/${NB_USER}"

# The layers below come in the order things change least often: the poms, then every Maven artifact
# they need, then the sources. An edit to a notebook or a source file reuses the filled repository.
WORKDIR /opt/vthreads-course

# 1. The poms: the parent, the base, kit, kernel and grader, and each exercise (one line per module).
COPY --chown=${NB_UID}:${NB_GID} pom.xml ./
COPY --chown=${NB_UID}:${NB_GID} base/pom.xml base/
COPY --chown=${NB_UID}:${NB_GID} kit/pom.xml kit/
COPY --chown=${NB_UID}:${NB_GID} kernel/pom.xml kernel/
COPY --chown=${NB_UID}:${NB_GID} grader/pom.xml grader/
COPY --chown=${NB_UID}:${NB_GID} exercises/pom.xml exercises/
COPY --chown=${NB_UID}:${NB_GID} exercises/01-thread-cost/pom.xml exercises/01-thread-cost/
COPY --chown=${NB_UID}:${NB_GID} exercises/02-cafe/pom.xml exercises/02-cafe/
COPY --chown=${NB_UID}:${NB_GID} exercises/03-batch-math/pom.xml exercises/03-batch-math/
COPY --chown=${NB_UID}:${NB_GID} exercises/04-io-vs-cpu/pom.xml exercises/04-io-vs-cpu/
COPY --chown=${NB_UID}:${NB_GID} exercises/05-throttling/pom.xml exercises/05-throttling/
COPY --chown=${NB_UID}:${NB_GID} exercises/06-pinning/pom.xml exercises/06-pinning/
COPY --chown=${NB_UID}:${NB_GID} exercises/07-structured/pom.xml exercises/07-structured/
COPY --chown=${NB_UID}:${NB_GID} exercises/08-deadline/pom.xml exercises/08-deadline/

# 2. Fill /opt/m2/repository with everything the course's own commands use. The build of the poms alone
# (`./course setup` runs the same `install -DskipTests`) loads every build plugin and resolves every
# module's compile, run-time and test dependencies (the kit's include notebook 05's PostgreSQL server binaries for
# linux amd64 and arm64, so an image built on either runs it); surefire's JUnit Platform provider and launcher, which
# surefire resolves only when it runs tests (`./course test`), are fetched by name, at the pom's versions.
# dependency:go-offline is not used: it also wants the site and reporting plugins, which nothing here runs.
# tools/tests/test_image_build.py runs these same commands into an empty repository, then builds offline.
RUN mvn -B -q -DskipTests install && \
    mvn -B -q dependency:get '-Dartifact=org.apache.maven.surefire:surefire-junit-platform:${surefire.version}' && \
    mvn -B -q dependency:get '-Dartifact=org.junit.platform:junit-platform-launcher:${junit.platform.version}' && \
    rm -rf target base/target kit/target kernel/target grader/target exercises/target exercises/*/target && \
    rm -rf "/home/${NB_USER}/.m2" && \
    fix-permissions /opt/m2

# 3. The course itself (see .dockerignore for what stays out).
COPY --chown=${NB_UID}:${NB_GID} . /opt/vthreads-course

# Build the course with Maven offline, from the repository filled above: this is the proof that a
# classroom without network can build and grade. --rebuild makes Maven run even if a build stamp were
# up to date. The kernel goes into $CONDA_DIR/share/jupyter/kernels. Grading the exercises' starting
# code compiles and runs the grader (the test JVMs' AOT cache that it trains names /opt's jars, which a learner's
# copy in ~/work does not use: it goes); the timing-sensitive unit tests (`mvn verify`) are left to
# `./course test`, which runs where the machine is known, not under docker build's CPU limits or emulation.
RUN MAVEN_ARGS=--offline ./course setup --rebuild --prefix "${CONDA_DIR}" && \
    mkdir -p /tmp/course-build && \
    MAVEN_ARGS=--offline ./course grade --json /tmp/course-build/grade.json && \
    rm -rf /tmp/course-build "/home/${NB_USER}/.m2" /opt/vthreads-course/target/worker-aot && \
    fix-permissions /opt/vthreads-course && \
    fix-permissions /opt/m2 && \
    fix-permissions "${CONDA_DIR}" && \
    fix-permissions "/home/${NB_USER}"

# Jupyter server settings of the image: kernels idle for an hour are shut down (deploy/README.md).
COPY --chown=${NB_UID}:${NB_GID} deploy/docker/jupyter_server_config.json "${CONDA_DIR}/etc/jupyter/jupyter_server_config.d/vthreads-course.json"

# On first start, copy the course to ~/work/vthreads-course (an existing copy is kept).
USER root
COPY deploy/docker/copy-course-to-work /usr/local/bin/before-notebook.d/50-copy-course-to-work
RUN chmod a+rx /usr/local/bin/before-notebook.d/50-copy-course-to-work

# Back to the notebook user: the base image's start-notebook.py serves JupyterLab on port 8888
# with token authentication, and prints the URL with its token.
USER ${NB_UID}
WORKDIR "${HOME}"
