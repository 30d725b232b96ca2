"""Sending a player their personal link by e-mail, through the installation's SMTP
server when one is configured (``ORGANIZER_SMTP_HOST`` and friends), with the standard library's
``smtplib``: no queue, one short message per click of the organizer."""

from __future__ import annotations

import smtplib
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formataddr
from typing import Any

from organizer.core.errors import InputError
from organizer.core.translate import _


@dataclass(frozen=True)
class MailSettings:
    host: str
    port: int = 587
    user: str = ""
    password: str = ""
    sender: str = ""
    #: "starttls" (port 587), "ssl" (port 465) or "none" (a local relay, the tests' server)
    security: str = "starttls"
    timeout: float = 10.0


def settings_from(config: Mapping[str, Any]) -> MailSettings | None:
    """The SMTP settings in the app's config (``SMTP_HOST``, ``SMTP_PORT``, ``SMTP_USER``,
    ``SMTP_PASSWORD``, ``SMTP_FROM``, ``SMTP_SECURITY``; from ``ORGANIZER_SMTP_*`` in the
    environment), or None when no server is configured."""
    host = str(config.get("SMTP_HOST") or "").strip()
    if not host:
        return None
    security = str(config.get("SMTP_SECURITY") or "starttls").lower()
    port = int(config.get("SMTP_PORT") or (465 if security == "ssl" else 587))
    user = str(config.get("SMTP_USER") or "")
    return MailSettings(host, port, user, str(config.get("SMTP_PASSWORD") or ""),
                        str(config.get("SMTP_FROM") or user or f"arboretum@{host}"), security)


def player_link_message(settings: MailSettings, to_name: str, to_address: str, event_name: str, link: str) -> EmailMessage:
    """The message with a player's link, in the current language (the caller sets the event's)."""
    message = EmailMessage()
    message["Subject"] = _("Your page for %(event)s", event=event_name)
    message["From"] = settings.sender
    message["To"] = formataddr((to_name, to_address))
    message.set_content("\n\n".join((
        _("Hello %(name)s,", name=to_name),
        _("this is your own page for %(event)s: your table and seat each round, your results, and, when the "
          "organizer allows it, checking in and reporting your table's result.", event=event_name),
        link,
        _("Keep it to yourself: whoever has this link can act for you at the event."),
    )) + "\n")
    return message


def send(settings: MailSettings, message: EmailMessage) -> None:
    """Deliver one message; InputError in words when the server cannot be reached or refuses."""
    try:
        if settings.security == "ssl":
            client: smtplib.SMTP = smtplib.SMTP_SSL(settings.host, settings.port, timeout=settings.timeout,
                                                    context=ssl.create_default_context())
        else:
            client = smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout)
        with client:
            if settings.security == "starttls":
                client.starttls(context=ssl.create_default_context())
            if settings.user:
                client.login(settings.user, settings.password)
            client.send_message(message)
    except (OSError, smtplib.SMTPException) as error:
        raise InputError({"": _("The mail server did not take the message (%(error)s); nothing was sent.",
                                error=type(error).__name__)}) from None


def send_player_link(settings: MailSettings, to_name: str, to_address: str, event_name: str, link: str) -> None:
    if not to_address:
        raise InputError({"": _("%(name)s has no e-mail address.", name=to_name)})
    send(settings, player_link_message(settings, to_name, to_address, event_name, link))


def _message(settings: MailSettings, to_name: str, to_address: str, subject: str, lines: tuple[str, ...]) -> EmailMessage:
    message = EmailMessage()
    message["Subject"] = subject
    message["From"] = settings.sender
    message["To"] = formataddr((to_name, to_address))
    message.set_content("\n\n".join(lines) + "\n")
    return message


def signup_confirmation_message(settings: MailSettings, to_name: str, to_address: str, event_name: str,
                                confirm_link: str, page_link: str) -> EmailMessage:
    """Asks a person who signed up to confirm their e-mail address (in the event's language)."""
    return _message(settings, to_name, to_address, _("Confirm your sign-up for %(event)s", event=event_name), (
        _("Hello %(name)s,", name=to_name),
        _("please confirm your e-mail address to complete your sign-up for %(event)s; until then your sign-up "
          "does not count, and it expires after a day.", event=event_name),
        confirm_link,
        _("Your own page, with your sign-up's status and its withdrawal:"),
        page_link,
        _("Keep it to yourself: whoever has this link can act for you at the event."),
    ))


def signup_promoted_message(settings: MailSettings, to_name: str, to_address: str, event_name: str,
                            page_link: str) -> EmailMessage:
    """Tells a person on the waiting list that a place became free and is theirs."""
    return _message(settings, to_name, to_address, _("You have a place at %(event)s", event=event_name), (
        _("Hello %(name)s,", name=to_name),
        _("a place became free and you moved up from the waiting list: you are now a player of %(event)s.",
          event=event_name),
        page_link,
    ))


def signup_moved_message(settings: MailSettings, to_name: str, to_address: str, event_name: str, move: str,
                         status: str, waiting: int | None, page_link: str) -> EmailMessage:
    """Tells a person what the organizer did with their sign-up: approved it (a player, or on the
    waiting list when the places are taken), made them a player, moved them to the waiting
    list, or refused it. ``move`` and ``status`` are the sign-up's values after the move."""
    number = waiting or 0
    if status == "confirmed":
        subject = _("You have a place at %(event)s", event=event_name)
        if move == "approve":
            told = _("the organizer approved your sign-up: you are now a player of %(event)s.", event=event_name)
        else:
            told = _("the organizer gave you a place: you are now a player of %(event)s.", event=event_name)
    elif status == "waiting":
        subject = _("You are on the waiting list for %(event)s", event=event_name)
        if move == "approve":
            told = _("the organizer approved your sign-up for %(event)s; its places are taken, so you are on the "
                     "waiting list, number %(number)d. You move up when a place becomes free.",
                     event=event_name, number=number)
        else:
            told = _("the organizer moved you to the waiting list of %(event)s: you are number %(number)d, and you "
                     "move up when a place becomes free.", event=event_name, number=number)
    else:
        subject = _("Your sign-up for %(event)s", event=event_name)
        told = _("the organizer did not accept your sign-up for %(event)s.", event=event_name)
    return _message(settings, to_name, to_address, subject, (
        _("Hello %(name)s,", name=to_name),
        told,
        _("Your own page, with your sign-up's status:"),
        page_link,
    ))
