/* version.h — the one place roofline's version is written: `roofline
 * --version` (and `roofline version`) print it.  Numbered 0.STOP.PATCH
 * while the tool is developed in stops (this is stop 56); bump it here and
 * nowhere else. */
#ifndef RL_VERSION_H
#define RL_VERSION_H

#define RL_VERSION "0.56.0"

#endif
