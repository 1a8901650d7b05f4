from django.urls import path

from whistclub.accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("signup/sent/", views.signup_sent, name="signup_sent"),
    path("signup/confirm/<uidb64>/<token>/", views.signup_confirm, name="signup_confirm"),
    path("profile/", views.profile, name="profile"),
    path("games/", views.your_games, name="your_games"),
    path("profile/my-data.json", views.my_data, name="my_data"),
    path("profile/delete/", views.delete_account, name="delete_account"),
    # Before django.contrib.auth.urls (whistclub/urls.py), which has the same path and name.
    path("reset/<uidb64>/<token>/", views.PasswordResetConfirm.as_view(),
         name="password_reset_confirm"),
]
