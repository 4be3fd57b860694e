#!/usr/bin/env bash
# A real Slurm run of a sharded batch, on a private single-node cluster:
#   1. munged, slurmctld and slurmd from Debian's packages, started in the background (no systemd),
#      their state, sockets and logs in a temporary folder, addressing each other at 127.0.0.1 and
#      listening on the node's own address, not on every interface;
#   2. a job array of 4 tasks, all running at once, renders a 256-frame 1080p sweep into one shared
#      folder, each task `batch --shard $SLURM_ARRAY_TASK_ID/4 --resume` (the script the BatchAndClusters article shows);
#   3. task 1 is killed with SIGKILL mid-run, tasks 0, 2 and 3 are paused (SIGSTOP) at a moment one
#      of them holds a temporary file, task 1 is requeued (scontrol requeue, start time now) and its
#      second attempt resumes while the others are paused mid-write: every temporary file they
#      hold must survive it (a --resume there once removed them, and they lost frames); then the
#      others go on. Pausing them, rather than racing them, keeps the test from depending on how
#      fast the machine renders;
#   4. the union of the shards must be byte-identical to an unsharded run, file for file, with no
#      temporary file left;
#   steps 2-4 are repeated, 3 times unless the first argument says how many;
#   5. a job array of 4 tasks writing WebDataset tars of random frames gives, read back by the
#      `webdataset` package and Hugging Face `datasets`, the same samples as one run;
#   6. a job that loses its GPU (injected) exits 75 and is requeued by RequeueExit=75.
# Whatever happens, paused tasks are let go, this test's jobs cancelled and the daemons stopped by
# their PIDs at the end. Prints the time of each step.
# Usage: Tests/Cluster/slurm.sh [repetitions]   (root; apt-get install munge slurmctld slurmd slurm-client)
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
repetitions="${1:-3}"
work="$(mktemp -d /var/tmp/liquidlens-slurm.XXXXXX)"
chmod 0755 "$work"
daemons=()
stop_daemons() {
    for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${daemons[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    done
}
# The tasks this test has paused, let go whatever happens.
paused=()
resume_paused() {
    for pid in "${paused[@]}"; do kill -CONT "$pid" 2>/dev/null || true; done
    paused=()
}
# The jobs this test submitted: those still running when a step fails are cancelled before the
# daemons stop, so that none is left writing into the folder about to be removed.
jobs=()
cancel_jobs() {
    ((${#jobs[@]})) || return 0
    local list
    list="$(IFS=,; echo "${jobs[*]}")"
    scancel --quiet --full --signal=KILL "${jobs[@]}" 2>/dev/null || true
    for _ in $(seq 100); do [[ -z "$(squeue -h -j "$list" 2>/dev/null)" ]] && break; sleep 0.1; done
}
trap 'resume_paused; cancel_jobs; stop_daemons; rm -rf "$work"' EXIT

started=$SECONDS
step() {
    echo "slurm: $1 ($((SECONDS - started)) s)"
    started=$SECONDS
}
fail() {
    echo "slurm: FAILED: $1" >&2
    for log in "$work"/*.log; do echo "--- $log" >&2; tail -15 "$log" >&2; done
    exit 1
}
# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
    local limit=$1
    shift
    for _ in $(seq $((limit * 10))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
    return 1
}

# The release binary the container image carries (the Swift standard library linked in), from
# the scratch folder container.sh uses too: whichever of the two runs second finds it built.
nice swift build -c release --static-swift-stdlib --product liquidlens --scratch-path .build/container \
    >"$work/build.log" 2>&1 || fail "swift build"
liquidlens="$root/.build/container/release/liquidlens"
step "built liquidlens"

# Two free ports on 127.0.0.1 (a connection that fails means nobody listens there).
free_port() {
    local port
    while :; do
        port=$((20000 + RANDOM % 20000))
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
    done
}
controller_port="$(free_port)"
node_port="$(free_port)"
[[ "$controller_port" != "$node_port" ]] || node_port=$((controller_port + 1))

# munge: a fresh key, its socket in a folder of mode 711 (munged refuses looser ones).
mkdir -m 0711 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 0400 "$work/munge/munge.key"
munged --foreground --force --key-file="$work/munge/munge.key" --socket="$work/munge/socket" \
    --pid-file="$work/munge/munged.pid" --seed-file="$work/munge/seed" --log-file="$work/munged.log" \
    >>"$work/munged.log" 2>&1 &
daemons+=($!)
wait_for 10 test -S "$work/munge/socket" || fail "munged did not start"

node="$(hostname -s)"
mkdir "$work/state" "$work/spool" "$work/logs"
export SLURM_CONF="$work/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=liquidlens
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$controller_port
SlurmdPort=$node_port
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
# No cgroups: processes are tracked through /proc, tasks are not confined.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
# Each daemon listens on the node's own address (127.0.0.1 where the host name resolves there, as
# /etc/hosts does here), not on every interface.
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
JobRequeue=1
# liquidlens exits 75 when the Vulkan device was lost: run the task again.
RequeueExit=75
# Four CPUs declared on two cores, so that the four tasks of the array run at once.
NodeName=$node NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN
PartitionName=render Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -f "$SLURM_CONF" >>"$work/slurmctld.log" 2>&1 &
daemons+=($!)
slurmd -D -f "$SLURM_CONF" >>"$work/slurmd.log" 2>&1 &
daemons+=($!)
node_idle() { sinfo -h -N -o %t | grep -q idle; }
wait_for 30 node_idle || fail "the node did not come up"
step "munged, slurmctld and slurmd up on 127.0.0.1:$controller_port/$node_port"

# The sweep: a frosted lens moving across a 1920×1080 frame, 256 frames, about 0.25 s each on the
# CPU alone (each task's 64 frames take about 40 s, four tasks on two cores; the others are paused
# while task 1 is relaunched, which slurmd does about 20 s after the kill).
cat >"$work/lens.json" <<'EOF'
{"canvas": {"width": 640, "height": 360, "scale": 3},
 "background": [{"type": "gradient", "colors": ["#0f2027", "#ff7e5f"], "angle": 60},
                {"type": "lines", "spacing": 18, "width": 1, "angle": -30, "color": "#ffffff", "opacity": 0.35}],
 "glass": [{"shape": "capsule", "frame": {"x": 40, "y": 110, "width": 300, "height": 120},
            "optics": {"magnification": 1.2, "frost": 10, "dispersion": 0.2, "tint": [1, 1, 1, 0.1]}}]}
EOF
cat >"$work/sweep.json" <<'EOF'
{"scene": "lens.json", "name": "sweep", "sweep": [{"key": "glass[0].frame.x", "from": 20, "to": 320, "steps": 256}]}
EOF
"$liquidlens" batch "$work/sweep.json" -o "$work/whole" --backend cpu -q
step "rendered the sweep unsharded: 256 frames"

# The job script: the BatchAndClusters article's Slurm example, with the PID written down so this test can kill it.
cat >"$work/render.sh" <<EOF
#!/bin/sh
#SBATCH --array=0-3
#SBATCH --cpus-per-task=1
#SBATCH --requeue
#SBATCH --output=$work/logs/%A_%a.out
echo \$\$ >"$work/logs/task-\$SLURM_ARRAY_TASK_ID.pid"
exec "$liquidlens" batch "$work/sweep.json" -o "$work/frames" --shard "\$SLURM_ARRAY_TASK_ID/4" --resume \\
    --progress json --backend cpu -j 1
EOF

# A requeued job waits about two minutes before it is eligible again: start it now. Asked again
# while it waits, since slurmd refuses a launch that comes right after the job was killed and
# Slurm then sets the wait anew. slurmd keeps a killed job's revocation to the second and refuses
# any credential made in that second, so a job is requeued and started 2 s after it ended: a
# refused batch job that is not an array task fails instead of waiting again.
start_now() {
    if scontrol show job "$1" | grep -q "Reason=BeginTime"; then
        scontrol update JobId="$1" StartTime=now
    fi
}
# True once the clock is 2 s past second $1, when a job was seen ended: past the second slurmd
# revoked its credentials in (see above), so a requeue and start is not refused.
past_revocation() { (($(date +%s) >= $1 + 2)); }

for repetition in $(seq "$repetitions"); do
    rm -rf "$work/frames" "$work"/logs/*
    job="$(sbatch --parsable "$work/render.sh")"
    jobs+=("$job")
    # Task 1 renders frames 65…128: kill it once 3 of them are written.
    task1_frames() {
        find "$work/frames" -maxdepth 1 -regex '.*/sweep-00\(06[5-9]\|0[7-9][0-9]\|1[01][0-9]\|12[0-8]\)\.png' 2>/dev/null \
            | wc -l
    }
    task1_started() { (($(task1_frames) >= 3)); }
    task1_ended() { scontrol show job "${job}_1" | grep -q -e JobState=FAILED -e JobState=CANCELLED; }
    all_running() { (($(squeue -h -j "$job" -t RUNNING | wc -l) == 4)); }
    wait_for 120 all_running || fail "the 4 tasks of $job did not run at once"
    wait_for 120 task1_started || fail "task 1 wrote no frames"
    first_pid="$(cat "$work/logs/task-1.pid" 2>/dev/null)" || fail "task 1 wrote no PID"
    kill -KILL "$first_pid" || fail "task 1 ended before it was killed"
    wait_for 60 task1_ended || fail "task 1 did not end after SIGKILL"
    task1_ended_at="$(date +%s)"
    killed_with="$(task1_frames)"
    ((killed_with < 64)) || fail "task 1 finished before it was killed"
    # Pause the others at a moment one of them is writing a frame: its temporary file is then on
    # disk while task 1 resumes. SIGSTOP is asynchronous: a task counts as paused once every one
    # of its threads is stopped.
    others=()
    for task in 0 2 3; do
        pid="$(cat "$work/logs/task-$task.pid" 2>/dev/null)" || fail "task $task wrote no PID"
        others+=("$pid")
    done
    others_stopped() {
        local pid thread
        for pid in "${others[@]}"; do
            for thread in /proc/"$pid"/task/*/stat; do
                [[ "$(sed 's/.*) //' "$thread" 2>/dev/null | cut -c1)" == T ]] || return 1
            done
        done
    }
    others_partials() {
        local pid
        for pid in "${others[@]}"; do
            find "$work/frames" -maxdepth 1 -name ".*.partial-$pid-*" -printf '%f\n' 2>/dev/null || true
        done
    }
    held=""
    tries=0
    catch_until=$((SECONDS + 60))
    while ((SECONDS < catch_until)); do
        tries=$((tries + 1))
        paused=("${others[@]}")
        kill -STOP "${others[@]}" 2>/dev/null || true
        wait_for 5 others_stopped || fail "tasks 0, 2 and 3 did not all stop (one had ended?)"
        held="$(others_partials)"
        [[ -z "$held" ]] || break
        resume_paused
        sleep 0.01
    done
    [[ -n "$held" ]] || fail "tasks 0, 2 and 3 were never caught writing a frame ($tries tries)"
    wait_for 5 past_revocation "$task1_ended_at"
    scontrol requeue "${job}_1"
    # The second attempt has begun once it has written its PID.
    task1_restarted() {
        start_now "${job}_1"
        [[ "$(cat "$work/logs/task-1.pid" 2>/dev/null)" != "$first_pid" ]]
    }
    wait_for 120 task1_restarted || fail "the requeued task 1 did not start again"
    # Task 1 has passed its resume's clean-up once it writes a frame it had not.
    task1_resumed() { (($(task1_frames) > killed_with)); }
    wait_for 120 task1_resumed || fail "the requeued task 1 wrote no frame"
    running="$(squeue -h -j "$job" -t RUNNING -o %K | { grep -v -x 1 || true; } | sort | tr '\n' ' ')"
    [[ "$running" == "0 2 3 " ]] || fail "tasks 0, 2 and 3 were not all running while task 1 resumed: ${running:-none}"
    for name in $held; do
        [[ -e "$work/frames/$name" ]] || fail "the resumed task 1 removed $name, which a paused task was writing"
    done
    resume_paused
    array_done() { [[ -z "$(squeue -h -j "$job")" ]]; }
    wait_for 300 array_done || fail "the array did not finish"
    for task in 0 1 2 3; do
        scontrol show job "${job}_$task" | grep -q JobState=COMPLETED || fail "task $task did not complete"
    done
    scontrol show job "${job}_1" | grep -q "Restarts=1" || fail "task 1 was not restarted"
    grep -q "already complete" "$work/logs/${job}_1.out" || fail "the requeued task did not resume"
    diff -r "$work/whole" "$work/frames" >/dev/null || fail "the shards differ from the unsharded run"
    [[ "$(find "$work/frames" -type f | wc -l)" == 256 ]] || fail "not 256 files"
    [[ -z "$(find "$work/frames" -name '.*')" ]] || fail "temporary files left"
    step "run $repetition of $repetitions: task 1 killed after $killed_with of its 64 frames, requeued and resumed while tasks ${running}were paused holding $(wc -w <<<"$held") temporary file(s) (caught in $tries tries), which survived; the union equals the unsharded run, 256 frames byte for byte, no temporary file"
done

# WebDataset shards: 64 random frames (a seed and per-key distributions) in tars of 6 samples,
# written by an array of 4 tasks and by one run, read back by the `webdataset` package and
# Hugging Face `datasets` (the test tools' environment): every sample, its files' bytes included,
# must be the same. The tasks' slices (16 frames) do not align with the tars, so the tars differ
# and only the samples can agree.
cat >"$work/random.json" <<'JSON'
{"scene": "lens.json", "name": "random", "count": 64, "seed": 11, "scale": 1,
 "sample": [{"key": "glass[0].frame.x", "uniform": [20, 320]},
            {"key": "glass[0].optics.frost", "normal": {"mean": 6, "sd": 3, "min": 0, "max": 12}},
            {"key": "glass[0].optics.tint", "choice": [[1, 1, 1, 0.12], [0, 0.48, 1, 0.25]]}]}
JSON
"$liquidlens" batch "$work/random.json" -o "$work/wds-whole" --format webdataset --samples-per-shard 6 \
    --backend cpu -q
cat >"$work/shards.sh" <<SCRIPT
#!/bin/sh
#SBATCH --array=0-3
#SBATCH --cpus-per-task=1
#SBATCH --output=$work/logs/wds_%a.out
exec "$liquidlens" batch "$work/random.json" -o "$work/wds" --format webdataset --samples-per-shard 6 \\
    --shard "\$SLURM_ARRAY_TASK_ID/4" --backend cpu -j 1 -q
SCRIPT
shards="$(sbatch --parsable "$work/shards.sh")"
jobs+=("$shards")
shards_done() { [[ -z "$(squeue -h -j "$shards")" ]]; }
wait_for 300 shards_done || fail "the WebDataset array did not finish"
for task in 0 1 2 3; do
    scontrol show job "${shards}_$task" | grep -q JobState=COMPLETED || fail "WebDataset task $task did not complete"
done
read_samples() { "$root/.venv-tests/bin/python3" "$root/Tests/LiquidLensTests/Python/read_webdataset.py" "$1"; }
read_samples "$work/wds-whole" >"$work/wds-whole.json" || fail "the unsharded tars could not be read"
read_samples "$work/wds" >"$work/wds.json" || fail "the sharded tars could not be read"
"$root/.venv-tests/bin/python3" - "$work/wds-whole.json" "$work/wds.json" <<'PYTHON' \
    || fail "the shards' samples differ from one run's"
import json, sys
whole, sharded = (json.load(open(path)) for path in sys.argv[1:])
assert len(whole["webdataset"]) == 64, len(whole["webdataset"])
assert whole["webdataset"] == sharded["webdataset"], "the webdataset package reads other samples"
assert whole["datasets"] == sharded["datasets"], "Hugging Face datasets reads other samples"
PYTHON
step "a WebDataset array of 4 tasks wrote $(find "$work/wds" -name '*.tar' | wc -l) tars ($(find "$work/wds-whole" -name '*.tar' | wc -l) from one run): the same 64 samples byte for byte, read back by webdataset and datasets"

# A lost GPU: the first attempt of this job loses its Vulkan device (injected) and exits 75, which
# RequeueExit turns into a requeue; the second attempt renders.
cat >"$work/lost.sh" <<EOF
#!/bin/sh
#SBATCH --output=$work/logs/lost.out
#SBATCH --open-mode=append
[ "\${SLURM_RESTART_COUNT:-0}" -gt 0 ] || export LIQUIDLENS_INJECT_DEVICE_LOST=1
exec "$liquidlens" render --backend vulkan -o "$work/lost.png"
EOF
lost="$(sbatch --parsable "$work/lost.sh")"
jobs+=("$lost")
lost_requeued() { scontrol show job "$lost" | grep -q "Restarts=1"; }
wait_for 60 lost_requeued || fail "exit 75 did not requeue the job"
wait_for 5 past_revocation "$(date +%s)"
lost_done() {
    start_now "$lost"
    scontrol show job "$lost" | grep -q JobState=COMPLETED
}
wait_for 120 lost_done || fail "the requeued job did not complete"
[[ -s "$work/lost.png" ]] || fail "the requeued job wrote no image"
grep -q VK_ERROR_DEVICE_LOST "$work/logs/lost.out" || fail "the first attempt did not lose its device"
step "a job whose device was lost exited 75, was requeued by RequeueExit=75 and rendered"
echo "slurm: ok"
