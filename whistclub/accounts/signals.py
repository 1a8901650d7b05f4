from django.conf import settings
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from whistclub.accounts.leaving import forget_sign_ins
from whistclub.accounts.models import Profile


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_profile(sender, instance, created, raw=False, **kwargs):
    # Users created by createsuperuser or the admin get a profile too.
    if created and not raw:
        Profile.objects.get_or_create(user=instance)


post_delete.connect(forget_sign_ins, sender=settings.AUTH_USER_MODEL,
                    dispatch_uid="accounts.leaving.forget_sign_ins")
