# The Java virtual threads course: JupyterLab 4, JDK 25, Maven and the course's own kernel.
#
#   docker build -t vthreads-course .
#   docker run -it --rm -p 8888:8888 -v vthreads-work:/home/jovyan/work vthreads-course
#
# Binder builds this file as it is (repo2docker); JupyterHub uses the built image as its
# single-user image (deploy/jupyterhub/values.yaml). The image runs no install step of its own:
# apart from the conda environment and the base image, everything comes from ./course and Maven,
# the same commands that CI runs.
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
ENV JAVA_HOME="${CONDA_DIR}/lib/jvm" \
    VTHREADS_COURSE=/opt/vthreads-course \
    MAVEN_OPTS="-Dmaven.repo.local=/opt/m2/repository"

RUN mkdir -p /opt/vthreads-course /opt/m2/repository && \
    chown -R "${NB_UID}:${NB_GID}" /opt/vthreads-course /opt/m2 && \
    fix-permissions /opt/vthreads-course && \
    fix-permissions /opt/m2

USER ${NB_UID}

# JupyterLab 4, OpenJDK 25, Maven, nbclient/nbconvert and pytest, into the base environment.
COPY --chown=${NB_UID}:${NB_GID} environment.yml /tmp/environment.yml
RUN mamba env update --name base --file /tmp/environment.yml && \
    mamba clean --all -f -y && \
    rm -f /tmp/environment.yml && \
    fix-permissions "${CONDA_DIR}" && \
    fix-permissions "/home/${NB_USER}"

# The course itself (see .dockerignore for what stays out).
COPY --chown=${NB_UID}:${NB_GID} . /opt/vthreads-course
WORKDIR /opt/vthreads-course

# Build the course and install the kernel into $CONDA_DIR/share/jupyter/kernels, then fill the
# Maven repository with everything the kit, kernel, grader and exercises use: `mvn verify` (the
# first step of ./course test) brings the test plugins' providers, `./course grade` the grader's
# needs. The second grade runs with Maven offline, to prove a classroom without network can grade.
RUN ./course setup --prefix "${CONDA_DIR}" && \
    mvn -B -q verify && \
    mkdir -p /tmp/course-build && \
    ./course grade --json /tmp/course-build/online.json && \
    MAVEN_ARGS=--offline ./course grade --json /tmp/course-build/offline.json && \
    rm -rf /tmp/course-build "/home/${NB_USER}/.m2" && \
    fix-permissions /opt/vthreads-course && \
    fix-permissions /opt/m2 && \
    fix-permissions "${CONDA_DIR}" && \
    fix-permissions "/home/${NB_USER}"

# On first start, copy the course to ~/work/vthreads-course (an existing copy is kept).
USER root
COPY deploy/docker/copy-course-to-work /usr/local/bin/before-notebook.d/50-copy-course-to-work
RUN chmod a+rx /usr/local/bin/before-notebook.d/50-copy-course-to-work

# Back to the notebook user: the base image's start-notebook.py serves JupyterLab on port 8888
# with token authentication, and prints the URL with its token.
USER ${NB_UID}
WORKDIR "${HOME}"
