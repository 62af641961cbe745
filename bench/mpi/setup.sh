# Sourced by the bench/mpi scripts: checks that mpirun is there, makes the raw-output folder
# ($out, from OUT or a fresh temporary one), lets Open MPI run as root for this script's runs
# only, and prints the machine line every table starts with.
command -v mpirun >/dev/null || { echo "bench/mpi: mpirun not found (apt-get install openmpi-bin)" >&2; exit 3; }
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(free -g | awk '/^Mem:/{print $2}') GB;" \
  "date: $(date -u '+%Y-%m-%d %H:%M UTC'); load: $(cut -d' ' -f1-3 /proc/loadavg); commit: $(git rev-parse --short HEAD)"
