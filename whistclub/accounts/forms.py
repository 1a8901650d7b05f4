from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from whistclub.accounts.models import Profile, profile_for


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"),
        help_text=_("Used only to reset your password."),
    )
    display_name = forms.CharField(
        label=_("Display name"), max_length=60, required=False,
        help_text=_("The name other players see. Defaults to your username."),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self):
        email = self.cleaned_data["email"].strip()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account with this email already exists."))
        return email

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
        fields = ("display_name", "language")
