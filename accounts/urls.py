from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views
from accounts.forms import PlainPasswordChangeForm, PlainSetPasswordForm

urlpatterns = [
    path("register/", views.register, name="register"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("settings/", views.account_settings, name="account_settings"),
    path("preferences/", views.preference_toggle, name="preference_toggle"),
    path(
        "password/change/",
        auth_views.PasswordChangeView.as_view(form_class=PlainPasswordChangeForm),
        name="password_change",
    ),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(form_class=PlainSetPasswordForm),
        name="password_reset_confirm",
    ),
    path("password/reset/complete/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
