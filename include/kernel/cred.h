/* Credentials of the shell and the processes it starts: just a uid (root 0, nobody 65534). */
#ifndef RNDBITS_CRED_H
#define RNDBITS_CRED_H

#define UID_ROOT 0u
#define UID_NOBODY 65534u

unsigned current_uid(void);

#endif
