/* interrupt.c — SIGINT flag and the temporary file in flight (see .h). */
#include "interrupt.h"

#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted;
static volatile sig_atomic_t temp_valid;
static char temp_path[4096];

void rl_interrupt_exit(int status)
{
    if (temp_valid)
        unlink(temp_path);
    _exit(status);
}

static void on_sigint(int sig)
{
    (void)sig;
    if (interrupted) /* second Ctrl-C: the user insists */
        rl_interrupt_exit(128 + SIGINT);
    interrupted = 1;
}

int rl_interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; /* a write in progress completes */
    return sigaction(SIGINT, &sa, NULL);
}

int rl_interrupted(void) { return interrupted != 0; }

void rl_interrupt_raise(void) { interrupted = 1; }

void rl_interrupt_clear(void) { interrupted = 0; }

void rl_interrupt_track_temp(const char *path)
{
    temp_valid = 0;
    if (!path || strlen(path) >= sizeof temp_path)
        return;
    memcpy(temp_path, path, strlen(path) + 1);
    temp_valid = 1;
}
