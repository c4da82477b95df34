"""bench.tree counts the whole process tree: a child's memory and an orphaned grandchild's CPU,
which /usr/bin/time (one process, plus the children it waited for) leaves out."""

import sys
import textwrap

import pytest

from bench.tree import cgroup_usable, measure

MB = 1_000_000

# the parent stays small and prints its own peak (KiB); its child writes 200 MB and holds it. The
# peak is the kernel's high-water mark of this program's memory: getrusage's would carry the peak of
# the process it was forked from (a test worker of hundreds of MB) across the exec
PARENT_AND_BIG_CHILD = textwrap.dedent("""
    import subprocess, sys
    subprocess.run([sys.executable, "-c", "import time; b = b'x' * 200_000_000; time.sleep(0.5)"], check=True)
    with open("/proc/self/status") as status:
        print(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
""")

# the child starts a grandchild and exits without waiting for it: the orphan burns 0.5 s of CPU that
# no process of the tree ever waits for, as a forkserver's workers do
ORPHANED_GRANDCHILD = textwrap.dedent("""
    import subprocess, sys
    burn = "import time\\nwhile time.process_time() < 0.5: pass"
    child = "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', %r]); time.sleep(0.2)" % burn
    subprocess.run([sys.executable, "-c", child], check=True)
""")


@pytest.fixture(params=["cgroup", "psutil"])
def method(request):
    # psutil is a test dependency, so its method is always checked; a cgroup needs root and cgroupfs
    if request.param == "cgroup" and not cgroup_usable():
        pytest.skip("no writable cgroup here (not root, or no cgroup file system): the psutil method measures")
    return request.param


def test_a_childs_memory_counts_in_the_tree(method):
    m = measure([sys.executable, "-c", PARENT_AND_BIG_CHILD], method=method)
    assert m.returncode == 0, m.stderr
    parent_alone = int(m.stdout.split()[-1]) * 1024
    assert parent_alone < 60 * MB
    assert m.peak_bytes >= 200 * MB
    assert m.method.startswith(method)


def test_an_orphaned_grandchilds_cpu_counts_in_the_tree(method):
    m = measure([sys.executable, "-c", ORPHANED_GRANDCHILD], method=method)
    assert m.returncode == 0, m.stderr
    assert m.cpu_s >= 0.5


def test_a_failing_command_gives_its_code_and_output(method):
    m = measure([sys.executable, "-c", "import sys; print('out'); sys.exit('gone wrong')"], method=method)
    assert (m.returncode, m.stdout.strip(), m.stderr.strip()) == (1, "out", "gone wrong")
