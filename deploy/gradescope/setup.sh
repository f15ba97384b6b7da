#!/usr/bin/env bash
# Gradescope runs this once, as root, on its Ubuntu base image, when the autograder is built.
# It installs the JDK of the course's release (the pom's maven.compiler.release) and Maven, then builds the course's grader with Maven, resolving every artifact now:
# grading (run_autograder) runs the grader with plain `java` and needs no network.
#
# For a local trial: COURSE_AUTOGRADER_SKIP_INSTALL=1 uses the JDK in JAVA_HOME and the Maven on PATH,
# and COURSE_MAVEN_ARGS (for example -o) is passed to Maven.
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# The JDK release the course runs on: read from the pom itself, since no build has written its facts yet.
RELEASE="$(sed -n 's:.*<maven.compiler.release>\([0-9]*\)</maven.compiler.release>.*:\1:p' "$SRC/pom.xml" | head -n 1)"

# Eclipse Temurin, pinned, for Ubuntu releases whose archive has no openjdk-$RELEASE (the checksums are
# Adoptium's published SHA-256 of these archives). A pin of another feature release than the pom's is refused.
JDK_VERSION="25.0.1+8"
JDK_URL_X64="https://github.com/adoptium/temurin25-binaries/releases/download/jdk-25.0.1%2B8/OpenJDK25U-jdk_x64_linux_hotspot_25.0.1_8.tar.gz"
JDK_SHA256_X64="8daf77d1aacffe38c9889689bc224a13557de77559d9a5bb91991e6a298baa0d"
JDK_URL_AARCH64="https://github.com/adoptium/temurin25-binaries/releases/download/jdk-25.0.1%2B8/OpenJDK25U-jdk_aarch64_linux_hotspot_25.0.1_8.tar.gz"
JDK_SHA256_AARCH64="5c83b7d2121ed482fd06831a1eba1633dbab818aba6addddf48e075b97e6e9b8"

if [ "${COURSE_AUTOGRADER_SKIP_INSTALL:-0}" != 1 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  if apt-cache show "openjdk-$RELEASE-jdk-headless" >/dev/null 2>&1; then
    echo "setup: JDK $RELEASE from Ubuntu's openjdk-$RELEASE-jdk-headless"
    apt-get install -y -qq --no-install-recommends "openjdk-$RELEASE-jdk-headless" maven ca-certificates >/dev/null
    JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
    for d in /usr/lib/jvm/java-"$RELEASE"-openjdk-*; do [ -x "$d/bin/javac" ] && JAVA_HOME="$d"; done
  else
    echo "setup: Ubuntu has no openjdk-$RELEASE here; Eclipse Temurin $JDK_VERSION, checksum-verified"
    apt-get install -y -qq --no-install-recommends maven ca-certificates curl >/dev/null
    if [ "${JDK_VERSION%%.*}" != "$RELEASE" ]; then
      echo "setup: the pinned Temurin $JDK_VERSION is not JDK $RELEASE, the pom's release: update the pin" >&2; exit 1
    fi
    case "$(uname -m)" in
      x86_64) url="$JDK_URL_X64"; sum="$JDK_SHA256_X64" ;;
      aarch64) url="$JDK_URL_AARCH64"; sum="$JDK_SHA256_AARCH64" ;;
      *) echo "setup: no pinned JDK $RELEASE for $(uname -m)" >&2; exit 1 ;;
    esac
    curl -fsSL -o /tmp/jdk.tar.gz "$url"
    echo "$sum  /tmp/jdk.tar.gz" | sha256sum -c -
    mkdir -p "/opt/jdk-$RELEASE"
    tar -xzf /tmp/jdk.tar.gz -C "/opt/jdk-$RELEASE" --strip-components=1
    rm -f /tmp/jdk.tar.gz
    JAVA_HOME="/opt/jdk-$RELEASE"
  fi
fi
: "${JAVA_HOME:?set JAVA_HOME to a JDK $RELEASE}"
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
"$JAVA_HOME/bin/java" -version 2>&1 | head -n 1
echo "$JAVA_HOME" > "$SRC/.java_home"

# The grader and the course's base it needs; grader/target/lib receives every run-time jar.
cd "$SRC"
# shellcheck disable=SC2086
mvn -B -q ${COURSE_MAVEN_ARGS:-} -DskipTests -pl grader -am package
ls grader/target/course-grader-*.jar >/dev/null
echo "setup: the grader is built"
