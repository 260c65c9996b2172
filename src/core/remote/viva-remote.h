/* viva-remote.h: the client side of an exam server, in one include
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "viva-defense-stream.h"
#include "viva-exam-link.h"
#include "viva-exam-server-client.h"
#include "viva-remote-error.h"
#include "viva-remote-sitting.h"
