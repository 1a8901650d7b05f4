from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from whistclub.accounts.models import Profile, profile_for
from whistclub.accounts.names import (
    imitates_a_computer_player,
    readable,
    used_by_another_account,
)


def check_shown_name(name: str, user=None) -> None:
    """Refuse a name others would take for a computer player or for another person (also
    through look-alike letters: whistclub.accounts.names)."""
    if imitates_a_computer_player(name):
        raise forms.ValidationError(
            _("Computer players are shown under names like this one, so other players would be "
              "misled. Please choose another name."), code="computer_name")
    if used_by_another_account(name, user):
        raise forms.ValidationError(
            _("Another player already goes by this name (capitals and spaces aside). Please "
              "choose another name."), code="name_taken")


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"),
        help_text=_("Used to reset your password, and for an e-mail before each event you register for (which you can stop)."),
    )
    display_name = forms.CharField(
        label=_("Display name"), max_length=60, required=False,
        help_text=_("The name other players see. Defaults to your username."),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_username(self):
        username = super().clean_username()
        # Without a display name, the username is the name others see.
        if username:
            check_shown_name(username, self.instance)
        return username

    def clean_display_name(self):
        display_name = readable(self.cleaned_data.get("display_name", "")).strip()
        if display_name:
            check_shown_name(display_name, self.instance)
        return display_name

    def clean_email(self):
        # Whether the address has an account is never said here (whistclub.accounts.signup
        # writes to its owner instead): the form would tell anyone who has signed up.
        return self.cleaned_data["email"].strip()

    def save(self, commit=True):
        user = super().save(commit=commit)
        if commit:
            profile = profile_for(user)
            profile.display_name = self.cleaned_data.get("display_name", "")
            profile.save(update_fields=["display_name"])
            user.profile = profile
        return user


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ("display_name", "language", "four_colour_deck", "table_sounds", "event_reminders")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The empty choice in words, not Django's dashes: it means "follow the browser".
        language = self.fields["language"]
        language.choices = [("", _("Same as my browser")),
                            *[choice for choice in language.choices if choice[0]]]
        if self.instance.is_guest:  # no address to write to
            del self.fields["event_reminders"]

    def clean_display_name(self):
        display_name = readable(self.cleaned_data.get("display_name", "")).strip()
        if display_name:
            check_shown_name(display_name, self.instance.user)
        return display_name


class DeleteAccountForm(forms.Form):
    """The person confirms with their password (their username, for an account made without
    one), so that nobody at a computer left signed in can delete it."""

    confirmation = forms.CharField(strip=False)

    def __init__(self, user, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        field = self.fields["confirmation"]
        if user.has_usable_password():
            field.label = _("Your password")
            field.widget = forms.PasswordInput(attrs={"autocomplete": "current-password"})
        else:
            field.label = _("Your username")
            field.widget = forms.TextInput(attrs={"autocomplete": "off"})

    def clean_confirmation(self):
        given = self.cleaned_data["confirmation"]
        if self.user.has_usable_password():
            if not self.user.check_password(given):
                raise forms.ValidationError(
                    _("That is not your password, so nothing was deleted."), code="wrong")
        elif given.strip() != self.user.get_username():
            raise forms.ValidationError(
                _("That is not your username, so nothing was deleted."), code="wrong")
        return given
