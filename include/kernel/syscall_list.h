/* The system calls every ABI table is built from: SYSCALL(name, handler) for each call, kept
 * where the including ABI's asm/unistd*.h numbers it (__NR_name). The including file defines
 * SYSCALL(name, fn) and SYSCALL_ABI_BITS (32 or 64: the 32-bit ABIs' stat, fstat, lstat and
 * mmap are the old-struct forms, not served). A NULL handler names a call the kernel does not
 * serve, so its "not implemented" line can say what it is. The thread-pointer calls are per
 * ISA and listed by the arch's own table. No include guard: included once per table. */

/* The file calls (kernel/fs_syscalls.c). */
#ifdef __NR_read
SYSCALL(read, sys_read)
#endif
#ifdef __NR_write
SYSCALL(write, sys_write)
#endif
#ifdef __NR_readv
SYSCALL(readv, sys_readv)
#endif
#ifdef __NR_writev
SYSCALL(writev, sys_writev)
#endif
#ifdef __NR_open
SYSCALL(open, sys_open)
#endif
#ifdef __NR_openat
SYSCALL(openat, sys_openat)
#endif
#ifdef __NR_close
SYSCALL(close, sys_close)
#endif
#ifdef __NR_lseek
SYSCALL(lseek, sys_lseek)
#endif
#ifdef __NR_sendfile
SYSCALL(sendfile, sys_sendfile)
#endif
#ifdef __NR_sendfile64
SYSCALL(sendfile64, sys_sendfile64)
#endif
#ifdef __NR__llseek
SYSCALL(_llseek, sys_llseek)
#endif
#if defined(__NR_fstat) && SYSCALL_ABI_BITS == 64
SYSCALL(fstat, sys_newfstat)
#endif
#if defined(__NR_stat) && SYSCALL_ABI_BITS == 64
SYSCALL(stat, sys_newstat)
#endif
#if defined(__NR_lstat) && SYSCALL_ABI_BITS == 64
SYSCALL(lstat, sys_newlstat)
#endif
#if defined(__NR_fstat) && SYSCALL_ABI_BITS == 32
SYSCALL(fstat, NULL)
#endif
#if defined(__NR_stat) && SYSCALL_ABI_BITS == 32
SYSCALL(stat, NULL)
#endif
#if defined(__NR_lstat) && SYSCALL_ABI_BITS == 32
SYSCALL(lstat, NULL)
#endif
#ifdef __NR_newfstatat
SYSCALL(newfstatat, sys_newfstatat)
#endif
#ifdef __NR_fstat64
SYSCALL(fstat64, sys_fstat64)
#endif
#ifdef __NR_stat64
SYSCALL(stat64, sys_stat64)
#endif
#ifdef __NR_lstat64
SYSCALL(lstat64, sys_lstat64)
#endif
#ifdef __NR_fstatat64
SYSCALL(fstatat64, sys_fstatat64)
#endif
#ifdef __NR_statx
SYSCALL(statx, sys_statx)
#endif
#ifdef __NR_ioctl
SYSCALL(ioctl, sys_ioctl)
#endif
#ifdef __NR_fcntl
SYSCALL(fcntl, sys_fcntl)
#endif
#ifdef __NR_fcntl64
SYSCALL(fcntl64, sys_fcntl)
#endif
#ifdef __NR_getdents64
SYSCALL(getdents64, sys_getdents64)
#endif
#ifdef __NR_getcwd
SYSCALL(getcwd, sys_getcwd)
#endif
#ifdef __NR_chdir
SYSCALL(chdir, sys_chdir)
#endif
#ifdef __NR_readlink
SYSCALL(readlink, sys_readlink)
#endif
#ifdef __NR_readlinkat
SYSCALL(readlinkat, sys_readlinkat)
#endif
#ifdef __NR_access
SYSCALL(access, sys_access)
#endif
#ifdef __NR_faccessat
SYSCALL(faccessat, sys_faccessat)
#endif
#ifdef __NR_faccessat2
SYSCALL(faccessat2, sys_faccessat)
#endif

/* Processes, identity, limits, randomness (kernel/sys_proc.c). */
#ifdef __NR_exit
SYSCALL(exit, sys_exit)
#endif
#ifdef __NR_exit_group
SYSCALL(exit_group, sys_exit_group)
#endif
#ifdef __NR_getpid
SYSCALL(getpid, sys_getpid)
#endif
#ifdef __NR_getppid
SYSCALL(getppid, sys_getppid)
#endif
#ifdef __NR_gettid
SYSCALL(gettid, sys_gettid)
#endif
#ifdef __NR_getuid
SYSCALL(getuid, sys_getuid)
#endif
#ifdef __NR_geteuid
SYSCALL(geteuid, sys_getuid)
#endif
#ifdef __NR_getgid
SYSCALL(getgid, sys_getgid)
#endif
#ifdef __NR_getegid
SYSCALL(getegid, sys_getgid)
#endif
#ifdef __NR_getuid32
SYSCALL(getuid32, sys_getuid)
#endif
#ifdef __NR_geteuid32
SYSCALL(geteuid32, sys_getuid)
#endif
#ifdef __NR_getgid32
SYSCALL(getgid32, sys_getgid)
#endif
#ifdef __NR_getegid32
SYSCALL(getegid32, sys_getgid)
#endif
#ifdef __NR_uname
SYSCALL(uname, sys_uname)
#endif
#ifdef __NR_set_tid_address
SYSCALL(set_tid_address, sys_set_tid_address)
#endif
#ifdef __NR_set_robust_list
SYSCALL(set_robust_list, sys_set_robust_list)
#endif
#ifdef __NR_rseq
SYSCALL(rseq, sys_rseq)
#endif
#ifdef __NR_prlimit64
SYSCALL(prlimit64, sys_prlimit64)
#endif
#ifdef __NR_getrlimit
SYSCALL(getrlimit, sys_getrlimit)
#endif
#ifdef __NR_ugetrlimit
SYSCALL(ugetrlimit, sys_getrlimit)
#endif
#ifdef __NR_setrlimit
SYSCALL(setrlimit, sys_setrlimit)
#endif
#ifdef __NR_getrandom
SYSCALL(getrandom, sys_getrandom)
#endif
#ifdef __NR_sysinfo
SYSCALL(sysinfo, sys_sysinfo)
#endif
#ifdef __NR_kill
SYSCALL(kill, sys_kill)
#endif
#ifdef __NR_tgkill
SYSCALL(tgkill, sys_tgkill)
#endif
#ifdef __NR_sched_yield
SYSCALL(sched_yield, sys_sched_yield)
#endif
#ifdef __NR_sched_getaffinity
SYSCALL(sched_getaffinity, sys_sched_getaffinity)
#endif
#ifdef __NR_prctl
SYSCALL(prctl, sys_prctl)
#endif

/* Time and futexes (kernel/sys_time.c). */
#ifdef __NR_clock_gettime
SYSCALL(clock_gettime, sys_clock_gettime)
#endif
#ifdef __NR_clock_gettime64
SYSCALL(clock_gettime64, sys_clock_gettime64)
#endif
#ifdef __NR_clock_getres
SYSCALL(clock_getres, sys_clock_getres)
#endif
#ifdef __NR_clock_getres_time64
SYSCALL(clock_getres_time64, sys_clock_getres64)
#endif
#ifdef __NR_gettimeofday
SYSCALL(gettimeofday, sys_gettimeofday)
#endif
#ifdef __NR_time
SYSCALL(time, sys_time)
#endif
#ifdef __NR_nanosleep
SYSCALL(nanosleep, sys_nanosleep)
#endif
#ifdef __NR_clock_nanosleep
SYSCALL(clock_nanosleep, sys_clock_nanosleep)
#endif
#ifdef __NR_clock_nanosleep_time64
SYSCALL(clock_nanosleep_time64, sys_clock_nanosleep64)
#endif
#ifdef __NR_futex
SYSCALL(futex, sys_futex)
#endif
#ifdef __NR_futex_time64
SYSCALL(futex_time64, sys_futex64)
#endif

/* Signals: accepted and recorded (kernel/sys_signal.c). */
#ifdef __NR_rt_sigaction
SYSCALL(rt_sigaction, sys_rt_sigaction)
#endif
#ifdef __NR_rt_sigprocmask
SYSCALL(rt_sigprocmask, sys_rt_sigprocmask)
#endif
#ifdef __NR_sigaltstack
SYSCALL(sigaltstack, sys_sigaltstack)
#endif

/* Memory (kernel/sys_mm.c). */
#ifdef __NR_brk
SYSCALL(brk, sys_brk)
#endif
#if defined(__NR_mmap) && SYSCALL_ABI_BITS == 64
SYSCALL(mmap, sys_mmap)
#endif
#if defined(__NR_mmap) && SYSCALL_ABI_BITS == 32
SYSCALL(mmap, NULL)
#endif
#ifdef __NR_mmap2
SYSCALL(mmap2, sys_mmap2)
#endif
#ifdef __NR_munmap
SYSCALL(munmap, sys_munmap)
#endif
#ifdef __NR_mprotect
SYSCALL(mprotect, sys_mprotect)
#endif
#ifdef __NR_madvise
SYSCALL(madvise, sys_madvise)
#endif

/* Waiting for descriptors (kernel/poll.c): i386's select (82) is the old one, its arguments
 * in a block in memory; the 32-bit ABIs' select(2) is _newselect. */
#ifdef __NR_poll
SYSCALL(poll, sys_poll)
#endif
#if defined(__NR_select) && SYSCALL_ABI_BITS == 64
SYSCALL(select, sys_select)
#endif
#if defined(__NR_select) && SYSCALL_ABI_BITS == 32
SYSCALL(select, sys_old_select)
#endif
#ifdef __NR__newselect
SYSCALL(_newselect, sys_select)
#endif
#ifdef __NR_pselect6
SYSCALL(pselect6, sys_pselect6)
#endif
#ifdef __NR_ppoll
SYSCALL(ppoll, sys_ppoll)
#endif
#ifdef __NR_pselect6_time64
SYSCALL(pselect6_time64, sys_pselect6_time64)
#endif
#ifdef __NR_ppoll_time64
SYSCALL(ppoll_time64, sys_ppoll_time64)
#endif

/* Known by name only: -ENOSYS, with the name in the console line. */
#ifdef __NR_rt_sigreturn
SYSCALL(rt_sigreturn, sys_rt_sigreturn)
#endif
#ifdef __NR_pread64
SYSCALL(pread64, NULL)
#endif
#ifdef __NR_pwrite64
SYSCALL(pwrite64, NULL)
#endif
#ifdef __NR_pipe
SYSCALL(pipe, sys_pipe)
#endif
#ifdef __NR_mremap
SYSCALL(mremap, NULL)
#endif
#ifdef __NR_msync
SYSCALL(msync, NULL)
#endif
#ifdef __NR_mincore
SYSCALL(mincore, NULL)
#endif
#ifdef __NR_dup
SYSCALL(dup, sys_dup)
#endif
#ifdef __NR_dup2
SYSCALL(dup2, sys_dup2)
#endif
#ifdef __NR_pause
SYSCALL(pause, sys_pause)
#endif
#ifdef __NR_getitimer
SYSCALL(getitimer, NULL)
#endif
#ifdef __NR_alarm
SYSCALL(alarm, NULL)
#endif
#ifdef __NR_setitimer
SYSCALL(setitimer, NULL)
#endif
#ifdef __NR_socket
SYSCALL(socket, NULL)
#endif
#ifdef __NR_connect
SYSCALL(connect, NULL)
#endif
#ifdef __NR_clone
SYSCALL(clone, sys_clone)
#endif
#ifdef __NR_fork
SYSCALL(fork, sys_fork)
#endif
#ifdef __NR_vfork
SYSCALL(vfork, sys_vfork)
#endif
#ifdef __NR_execve
SYSCALL(execve, sys_execve)
#endif
#ifdef __NR_wait4
SYSCALL(wait4, sys_wait4)
#endif
#ifdef __NR_flock
SYSCALL(flock, NULL)
#endif
#ifdef __NR_fsync
SYSCALL(fsync, NULL)
#endif
#ifdef __NR_fdatasync
SYSCALL(fdatasync, NULL)
#endif
#ifdef __NR_truncate
SYSCALL(truncate, NULL)
#endif
#ifdef __NR_ftruncate
SYSCALL(ftruncate, NULL)
#endif
#ifdef __NR_getdents
SYSCALL(getdents, NULL)
#endif
#ifdef __NR_fchdir
SYSCALL(fchdir, NULL)
#endif
#ifdef __NR_rename
SYSCALL(rename, NULL)
#endif
#ifdef __NR_mkdir
SYSCALL(mkdir, NULL)
#endif
#ifdef __NR_rmdir
SYSCALL(rmdir, NULL)
#endif
#ifdef __NR_creat
SYSCALL(creat, NULL)
#endif
#ifdef __NR_link
SYSCALL(link, NULL)
#endif
#ifdef __NR_unlink
SYSCALL(unlink, NULL)
#endif
#ifdef __NR_symlink
SYSCALL(symlink, NULL)
#endif
#ifdef __NR_chmod
SYSCALL(chmod, NULL)
#endif
#ifdef __NR_fchmod
SYSCALL(fchmod, NULL)
#endif
#ifdef __NR_chown
SYSCALL(chown, NULL)
#endif
#ifdef __NR_fchown
SYSCALL(fchown, NULL)
#endif
#ifdef __NR_lchown
SYSCALL(lchown, NULL)
#endif
#ifdef __NR_umask
SYSCALL(umask, NULL)
#endif
#ifdef __NR_getrusage
SYSCALL(getrusage, NULL)
#endif
#ifdef __NR_times
SYSCALL(times, NULL)
#endif
#ifdef __NR_ptrace
SYSCALL(ptrace, NULL)
#endif
#ifdef __NR_syslog
SYSCALL(syslog, NULL)
#endif
#ifdef __NR_setuid
SYSCALL(setuid, NULL)
#endif
#ifdef __NR_setgid
SYSCALL(setgid, NULL)
#endif
#ifdef __NR_setpgid
SYSCALL(setpgid, sys_setpgid)
#endif
#ifdef __NR_getpgrp
SYSCALL(getpgrp, sys_getpgrp)
#endif
#ifdef __NR_setsid
SYSCALL(setsid, sys_setsid)
#endif
#ifdef __NR_setreuid
SYSCALL(setreuid, NULL)
#endif
#ifdef __NR_setregid
SYSCALL(setregid, NULL)
#endif
#ifdef __NR_getgroups
SYSCALL(getgroups, NULL)
#endif
#ifdef __NR_setgroups
SYSCALL(setgroups, NULL)
#endif
#ifdef __NR_setresuid
SYSCALL(setresuid, NULL)
#endif
#ifdef __NR_getresuid
SYSCALL(getresuid, NULL)
#endif
#ifdef __NR_setresgid
SYSCALL(setresgid, NULL)
#endif
#ifdef __NR_getresgid
SYSCALL(getresgid, NULL)
#endif
#ifdef __NR_getpgid
SYSCALL(getpgid, sys_getpgid)
#endif
#ifdef __NR_getsid
SYSCALL(getsid, sys_getsid)
#endif
#ifdef __NR_personality
SYSCALL(personality, NULL)
#endif
#ifdef __NR_statfs
SYSCALL(statfs, NULL)
#endif
#ifdef __NR_fstatfs
SYSCALL(fstatfs, NULL)
#endif
#ifdef __NR_sync
SYSCALL(sync, NULL)
#endif
#ifdef __NR_mount
SYSCALL(mount, NULL)
#endif
#ifdef __NR_umount2
SYSCALL(umount2, NULL)
#endif
#ifdef __NR_reboot
SYSCALL(reboot, NULL)
#endif
#ifdef __NR_sethostname
SYSCALL(sethostname, NULL)
#endif
#ifdef __NR_tkill
SYSCALL(tkill, sys_tkill)
#endif
#ifdef __NR_sched_setaffinity
SYSCALL(sched_setaffinity, NULL)
#endif
#ifdef __NR_fadvise64
SYSCALL(fadvise64, NULL)
#endif
#ifdef __NR_clock_settime
SYSCALL(clock_settime, NULL)
#endif
#ifdef __NR_mkdirat
SYSCALL(mkdirat, NULL)
#endif
#ifdef __NR_fchownat
SYSCALL(fchownat, NULL)
#endif
#ifdef __NR_unlinkat
SYSCALL(unlinkat, NULL)
#endif
#ifdef __NR_renameat
SYSCALL(renameat, NULL)
#endif
#ifdef __NR_linkat
SYSCALL(linkat, NULL)
#endif
#ifdef __NR_symlinkat
SYSCALL(symlinkat, NULL)
#endif
#ifdef __NR_fchmodat
SYSCALL(fchmodat, NULL)
#endif
#ifdef __NR_get_robust_list
SYSCALL(get_robust_list, NULL)
#endif
#ifdef __NR_utimensat
SYSCALL(utimensat, NULL)
#endif
#ifdef __NR_eventfd2
SYSCALL(eventfd2, NULL)
#endif
#ifdef __NR_epoll_create1
SYSCALL(epoll_create1, NULL)
#endif
#ifdef __NR_dup3
SYSCALL(dup3, sys_dup3)
#endif
#ifdef __NR_pipe2
SYSCALL(pipe2, sys_pipe2)
#endif
#ifdef __NR_memfd_create
SYSCALL(memfd_create, NULL)
#endif
#ifdef __NR_clone3
SYSCALL(clone3, NULL)
#endif
#ifdef __NR_close_range
SYSCALL(close_range, NULL)
#endif
#ifdef __NR_openat2
SYSCALL(openat2, NULL)
#endif
#ifdef __NR_setuid32
SYSCALL(setuid32, NULL)
#endif
#ifdef __NR_setgid32
SYSCALL(setgid32, NULL)
#endif
#ifdef __NR_getresuid32
SYSCALL(getresuid32, NULL)
#endif
#ifdef __NR_getresgid32
SYSCALL(getresgid32, NULL)
#endif
#ifdef __NR_getgroups32
SYSCALL(getgroups32, NULL)
#endif
#ifdef __NR_waitpid
SYSCALL(waitpid, sys_waitpid)
#endif
#ifdef __NR_sigaction
SYSCALL(sigaction, NULL)
#endif
#ifdef __NR_sigprocmask
SYSCALL(sigprocmask, NULL)
#endif
#ifdef __NR_signal
SYSCALL(signal, NULL)
#endif
#ifdef __NR_waitid
SYSCALL(waitid, sys_waitid)
#endif
#ifdef __NR_statfs64
SYSCALL(statfs64, NULL)
#endif
#ifdef __NR_fstatfs64
SYSCALL(fstatfs64, NULL)
#endif
#ifdef __NR_sysctl
SYSCALL(sysctl, NULL)
#endif
#ifdef __NR_ipc
SYSCALL(ipc, NULL)
#endif
#ifdef __NR_socketcall
SYSCALL(socketcall, NULL)
#endif
#ifdef __NR_olduname
SYSCALL(olduname, NULL)
#endif
#ifdef __NR_oldolduname
SYSCALL(oldolduname, NULL)
#endif
#ifdef __NR_sched_getparam
SYSCALL(sched_getparam, NULL)
#endif
#ifdef __NR_sched_setscheduler
SYSCALL(sched_setscheduler, NULL)
#endif
#ifdef __NR_sched_getscheduler
SYSCALL(sched_getscheduler, NULL)
#endif
#ifdef __NR_rt_sigtimedwait
SYSCALL(rt_sigtimedwait, sys_rt_sigtimedwait)
#endif
#ifdef __NR_rt_sigtimedwait_time64
SYSCALL(rt_sigtimedwait_time64, sys_rt_sigtimedwait_time64)
#endif
#ifdef __NR_rt_sigsuspend
SYSCALL(rt_sigsuspend, sys_rt_sigsuspend)
#endif
#ifdef __NR_rt_sigpending
SYSCALL(rt_sigpending, sys_rt_sigpending)
#endif
#ifdef __NR_rt_sigqueueinfo
SYSCALL(rt_sigqueueinfo, NULL)
#endif
#ifdef __NR_sigsuspend
SYSCALL(sigsuspend, NULL)
#endif
#ifdef __NR_sigreturn
SYSCALL(sigreturn, sys_sigreturn)
#endif
#ifdef __NR_epoll_pwait
SYSCALL(epoll_pwait, NULL)
#endif
#ifdef __NR_epoll_wait
SYSCALL(epoll_wait, NULL)
#endif
#ifdef __NR_epoll_ctl
SYSCALL(epoll_ctl, NULL)
#endif
#ifdef __NR_epoll_create
SYSCALL(epoll_create, NULL)
#endif
#ifdef __NR_mlock
SYSCALL(mlock, NULL)
#endif
#ifdef __NR_munlock
SYSCALL(munlock, NULL)
#endif
#ifdef __NR_capget
SYSCALL(capget, NULL)
#endif
#ifdef __NR_capset
SYSCALL(capset, NULL)
#endif
#ifdef __NR_set_mempolicy
SYSCALL(set_mempolicy, NULL)
#endif
#ifdef __NR_get_mempolicy
SYSCALL(get_mempolicy, NULL)
#endif
#ifdef __NR_membarrier
SYSCALL(membarrier, NULL)
#endif
#ifdef __NR_restart_syscall
SYSCALL(restart_syscall, NULL)
#endif
#ifdef __NR_vhangup
SYSCALL(vhangup, NULL)
#endif
#ifdef __NR_nice
SYSCALL(nice, NULL)
#endif
