/* interrupt.c — SIGINT/SIGTERM flag and the temporary file in flight (see .h). */
#include "interrupt.h"

#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted; /* 0, or the signal's number */
#define TEMPS 3 /* a figure's data, script and image temporaries at once (plot.c) */
static volatile sig_atomic_t temp_valid[TEMPS];
static volatile sig_atomic_t temp_dir[TEMPS];
static char temp_name[TEMPS][4096];

void rl_interrupt_exit(int status)
{
    for (int i = 0; i < TEMPS; i++)
        if (temp_valid[i])
            unlinkat(temp_dir[i], temp_name[i], 0);
    _exit(status);
}

static void on_signal(int sig)
{
    if (interrupted) /* second signal: the user (or the service manager) insists */
        rl_interrupt_exit(128 + sig);
    interrupted = sig;
}

int rl_interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sa.sa_flags = SA_RESTART; /* a write in progress completes */
    return sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL) ? -1 : 0;
}

int rl_interrupted(void) { return interrupted != 0; }

const char *rl_interrupt_name(void) { return interrupted == SIGTERM ? "SIGTERM" : "SIGINT"; }

int rl_interrupt_status(void) { return 128 + (interrupted == SIGTERM ? SIGTERM : SIGINT); }

void rl_interrupt_raise(void) { interrupted = SIGINT; }

void rl_interrupt_clear(void) { interrupted = 0; }

void rl_interrupt_track_temp(int dir, const char *name)
{
    if (!name) {
        for (int i = 0; i < TEMPS; i++)
            temp_valid[i] = 0;
        return;
    }
    int i = 0;
    while (i < TEMPS - 1 && temp_valid[i])
        i++; /* the first free slot, else the last (its older temporary untracked) */
    temp_valid[i] = 0;
    if (strlen(name) >= sizeof temp_name[i])
        return;
    memcpy(temp_name[i], name, strlen(name) + 1);
    temp_dir[i] = dir;
    temp_valid[i] = 1;
}
