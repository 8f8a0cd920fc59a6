#!/usr/bin/python3
# A stand-in for the desktop's notification server (freedesktop.org Desktop Notifications
# Specification: org.freedesktop.Notifications on the session bus), so a test can see the
# notifications Chromium shows and click one the way a person does.
#
# Chromium on Linux hands web notifications to this service when it answers on the session bus
# (chromium/chromium chrome/browser/notifications/notification_platform_bridge_linux.cc: it needs the
# 'body' and 'actions' capabilities, adds the action id 'default' to make the whole notification
# clickable, and turns the signal ActionInvoked(id, 'default') into a click, which the browser
# dispatches to the service worker as a trusted `notificationclick` with user activation, so
# clients.openWindow and WindowClient.focus are allowed as after a real click).
#
# Protocol with the test (one JSON object per line):
#   stdout: {"event":"ready"} once the name is owned;
#           {"event":"notify","id":N,"replaces":R,"summary":...,"body":...,"actions":[...],"sender":...}
#           per Notify (sender: the calling browser's unique bus name, so one line per device);
#           {"event":"close","id":N} per CloseNotification.
#   stdin:  "click N" emits ActionInvoked(N, "default"); "dismiss N" emits NotificationClosed(N, 2).
# Needs the Debian packages python3-dbus and python3-gi (system python).
import json
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

NAME = 'org.freedesktop.Notifications'
PATH = '/org/freedesktop/Notifications'


def say(obj):
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + '\n')
    sys.stdout.flush()


class Notifications(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, PATH)
        self.next_id = 0

    @dbus.service.method(NAME, in_signature='', out_signature='as')
    def GetCapabilities(self):
        return ['body', 'actions']

    @dbus.service.method(NAME, in_signature='', out_signature='ssss')
    def GetServerInformation(self):
        return ('poradna-test', 'poradna', '1.0', '1.2')

    @dbus.service.method(NAME, in_signature='susssasa{sv}i', out_signature='u', sender_keyword='sender')
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout, sender=None):
        if replaces_id:
            nid = int(replaces_id)
        else:
            self.next_id += 1
            nid = self.next_id
        say({'event': 'notify', 'id': nid, 'replaces': int(replaces_id), 'summary': str(summary),
             'body': str(body), 'actions': [str(a) for a in actions], 'sender': str(sender)})
        return dbus.UInt32(nid)

    @dbus.service.method(NAME, in_signature='u', out_signature='')
    def CloseNotification(self, nid):
        say({'event': 'close', 'id': int(nid)})

    @dbus.service.signal(NAME, signature='us')
    def ActionInvoked(self, nid, action):
        pass

    @dbus.service.signal(NAME, signature='uu')
    def NotificationClosed(self, nid, reason):
        pass


def main():
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    service = Notifications(bus)
    name = dbus.service.BusName(NAME, bus, do_not_queue=True)  # noqa: F841 (kept alive: owns the name)
    loop = GLib.MainLoop()

    def on_stdin(source, _condition):
        line = source.readline()
        if not line:
            loop.quit()
            return False
        parts = line.split()
        if len(parts) == 2 and parts[0] == 'click':
            service.ActionInvoked(dbus.UInt32(int(parts[1])), 'default')
        elif len(parts) == 2 and parts[0] == 'dismiss':
            service.NotificationClosed(dbus.UInt32(int(parts[1])), dbus.UInt32(2))
        return True

    GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, on_stdin)
    say({'event': 'ready'})
    loop.run()


if __name__ == '__main__':
    main()
